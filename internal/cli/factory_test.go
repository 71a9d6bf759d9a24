package cli

import (
	"context"
	"os"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
)

func testFactory(ios *iostreams.IOStreams) *cmdutil.Factory {
	return &cmdutil.Factory{
		IOStreams:  ios,
		Version:    "test",
		Now:        func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
		LookupEnv:  func(string) (string, bool) { return "", false },
		Environ:    func() []string { return nil },
		Executable: os.Executable,
		Getwd:      os.Getwd,
		Context:    context.Background(),
	}
}
