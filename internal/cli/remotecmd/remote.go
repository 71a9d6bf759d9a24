// Package remotecmd implements `mcpward remote <user@host>`, which watches
// another machine's sessions over SSH, and the hidden `mcpward hub-path`
// that the remote side answers it with.
package remotecmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/remote"
	"github.com/mcpward/mcpward/internal/session"
)

// RemoteOptions are the inputs of `mcpward remote`.
type RemoteOptions struct {
	IO        *iostreams.IOStreams
	LookupEnv func(string) (string, bool)
	Environ   func() []string

	Target string
	// SSH is the ssh program.
	SSH string
	// RemoteStateDir skips asking the remote machine.
	RemoteStateDir string
	// PrintCommand prints the ssh command instead of running it.
	PrintCommand bool
	// UI shows the hub; nil prints one line per record (the `mcpward ui`
	// command sets it to the terminal UI).
	UI func(ctx context.Context, h *hub.Hub) error
}

// NewCmdRemote returns `mcpward remote`.
func NewCmdRemote(f *cmdutil.Factory, runF func(context.Context, *RemoteOptions) error) *cobra.Command {
	opts := &RemoteOptions{IO: f.IOStreams, LookupEnv: f.StateEnv, Environ: f.Environ}
	cmd := &cobra.Command{
		Use:   "remote <user@host>",
		Short: "Watch another machine's sessions over SSH",
		Long: `Watch the MCP sessions of another machine live.

mcpward asks the remote machine where its hub socket is (mcpward hub-path,
else from its MCPWARD_HOME, XDG_STATE_HOME or HOME), then runs
  ssh -N -o ExitOnForwardFailure=yes -R <remote hub.sock>:<local socket> user@host
so that proxies running there stream to a hub here. ssh is stopped when
mcpward stops. Needs Unix sockets on both ends (OpenSSH 6.7 or later).

--print-command prints that command and connects nowhere: unless
--remote-state-dir names the remote directory, the printed command asks the
remote for its socket when you run it. If ssh fails, the exit code is 2 and
the reason is ssh's own message.`,
		Example: `  mcpward remote dev@build-box
  mcpward remote dev@build-box --print-command
  mcpward remote dev@build-box --remote-state-dir /srv/mcpward`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Target = args[0]
			if err := remote.CheckTarget(opts.Target); err != nil {
				return cmdutil.FlagErrorWrap(err)
			}
			if opts.RemoteStateDir != "" {
				if _, err := remote.SocketFromStateDir(opts.RemoteStateDir); err != nil {
					return cmdutil.FlagErrorf("--remote-state-dir: %v", err)
				}
			}
			if opts.SSH == "" {
				return cmdutil.FlagErrorf("--ssh must name a program")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return remoteRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.PrintCommand, "print-command", false, "print the ssh command and exit")
	fl.StringVar(&opts.RemoteStateDir, "remote-state-dir", "", "the remote machine's mcpward state `directory` (absolute; default: ask it)")
	fl.StringVar(&opts.SSH, "ssh", "ssh", "ssh `program` to run")
	cmdutil.AddStateDirFlag(cmd, f)
	return cmd
}

func remoteRun(ctx context.Context, opts *RemoteOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	env := opts.Environ()
	localState, err := session.StateDir(opts.LookupEnv)
	if err != nil {
		return err
	}
	localSock := remote.LocalSocket(localState, opts.Target)
	if opts.PrintCommand {
		// Printing connects nowhere: without --remote-state-dir the
		// command asks the remote for its socket when it runs.
		line := remote.PrintedCommand(opts.SSH, opts.Target, localSock)
		if opts.RemoteStateDir != "" {
			sock, err := remote.SocketFromStateDir(opts.RemoteStateDir)
			if err != nil {
				return err
			}
			line = remote.CommandLine(append([]string{opts.SSH}, remote.ForwardArgs(opts.Target, sock, localSock)...))
		}
		_, err := fmt.Fprintln(opts.IO.Out, line)
		return err
	}
	remoteSock, err := remoteSocket(ctx, opts, env)
	if err != nil {
		return err
	}
	var tmp string
	if feed.CheckSocketPath(localSock) != nil {
		// A long local state directory: a private short one instead.
		if tmp, err = os.MkdirTemp("", "mwr"); err != nil {
			return fmt.Errorf("remote: %w", err)
		}
		defer os.RemoveAll(tmp)
		localSock = filepath.Join(tmp, "hub.sock")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h, err := hub.New(ctx, hub.Options{Socket: localSock})
	if err != nil {
		return err
	}
	defer h.Close()
	cmd, sshErr, err := remote.Forward(ctx, opts.SSH, opts.Target, remoteSock, localSock, env)
	if err != nil {
		return err
	}
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	fmt.Fprintf(opts.IO.ErrOut, "mcpward: watching %s (its proxies stream to %s)\n", opts.Target, remoteSock)

	ui := opts.UI
	if ui == nil {
		ui = func(ctx context.Context, h *hub.Hub) error { return printRecords(ctx, h, opts.IO.Out) }
	}
	uiErr := make(chan error, 1)
	go func() { uiErr <- ui(ctx, h) }()
	select {
	case err := <-uiErr:
		cancel()
		<-waitErr // ssh is reaped before we return
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	case err := <-waitErr:
		cancel()
		<-uiErr
		msg := strings.TrimSpace(sshErr.String())
		if ctx.Err() == nil || err != nil {
			if msg == "" && err != nil {
				msg = err.Error()
			}
			return fault.WithHint(fault.Incomplete(fmt.Errorf("remote: ssh to %s stopped: %s", opts.Target, msg)),
				fmt.Sprintf("if a hub or a stale socket holds %s, remove it: ssh %s rm %s", remoteSock, opts.Target, remoteSock))
		}
		return nil
	}
}

func remoteSocket(ctx context.Context, opts *RemoteOptions, env []string) (string, error) {
	if opts.RemoteStateDir != "" {
		return remote.SocketFromStateDir(opts.RemoteStateDir)
	}
	return remote.Resolve(ctx, opts.SSH, opts.Target, env)
}

// printRecords is the plain view: one line per record.
func printRecords(ctx context.Context, h *hub.Hub, w io.Writer) error {
	sub := h.Subscribe()
	for {
		b, err := sub.Next(ctx)
		if err != nil {
			return err
		}
		if b.Skipped > 0 {
			fmt.Fprintf(w, "… %s skipped\n", plural.Count(b.Skipped, "record"))
		}
		for _, r := range b.Records {
			fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\n", r.Time.UTC().Format("15:04:05.000"), r.Label, r.Seq, r.Dir, oneLine(r.Frame, 120))
		}
	}
}

func oneLine(b []byte, n int) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// NewCmdHubPath returns the hidden `mcpward hub-path`, which prints this
// machine's hub socket: what `mcpward remote` asks the remote side.
func NewCmdHubPath(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:    "hub-path",
		Short:  "Print the hub socket path",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := session.StateDir(f.StateEnv)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(f.IOStreams.Out, feed.SocketPath(dir))
			return err
		},
	}
	cmdutil.AddStateDirFlag(cmd, f)
	return cmd
}
