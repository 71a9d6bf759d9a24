package tui

import "github.com/mcpward/mcpward/internal/tui/store"

func storeOpts(rows int) store.Options { return store.Options{RowsPerSession: rows} }
