package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpward/mcpward/internal/tui/store"
)

func storeOpts(rows int) store.Options { return store.Options{RowsPerSession: rows} }

func tea_size(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
