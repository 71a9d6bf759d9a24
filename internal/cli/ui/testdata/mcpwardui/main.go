// Command mcpwardui is mcpward with `ui` registered, for the screen-level
// tmux test (until internal/cli/commands.go registers ui.NewCmdUI).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcpward/mcpward/internal/cli"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/ui"
	"github.com/mcpward/mcpward/internal/iostreams"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f := &cmdutil.Factory{IOStreams: iostreams.System(), Version: cli.Version(), Now: time.Now,
		LookupEnv: os.LookupEnv, Environ: os.Environ, Executable: os.Executable, Getwd: os.Getwd, Context: ctx}
	root := cli.NewCmdRoot(f)
	if c, _, err := root.Find([]string{"ui"}); err != nil || c == root {
		root.AddCommand(ui.NewCmdUI(f, nil))
	}
	root.SetArgs(os.Args[1:])
	if err := root.ExecuteContext(ctx); err != nil {
		os.Stderr.WriteString("mcpward: " + err.Error() + "\n")
		os.Exit(1)
	}
}
