// Package wrapcmd implements `mcpward wrap` and `mcpward unwrap`: put one
// server of an MCP client's config behind the mcpward stdio shim, and take
// it out again.
package wrapcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/proxyflags"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/wrap"
)

// WrapOptions are the inputs of `mcpward wrap`.
type WrapOptions struct {
	IO  *iostreams.IOStreams
	Env wrap.Env
	// Executable returns the running mcpward binary (the default --binary).
	Executable func() (string, error)

	Server string
	// Label names the server's session logs (default: Server).
	Label   string
	Client  string
	Scope   string
	Config  string
	Mcpward string
	// ProxyFlags are the mcpward proxy flags given after --.
	ProxyFlags []string
	DryRun     bool
	// beforeCommit is a test hook (see wrap.File.BeforeCommit).
	beforeCommit func()
}

// UnwrapOptions are the inputs of `mcpward unwrap`.
type UnwrapOptions struct {
	IO  *iostreams.IOStreams
	Env wrap.Env

	Server string
	Client string
	Scope  string
	Config string
	DryRun bool
}

const clientHelp = `Clients and the files they keep servers in (--scope user is the default):

  claude-desktop  user: <config dir>/Claude/claude_desktop_config.json
  claude-code     user: ~/.claude.json (mcpServers, then projects.<cwd>.mcpServers)
                  workspace: .mcp.json
  cursor          user: ~/.cursor/mcp.json; workspace: .cursor/mcp.json
  vscode          user: <config dir>/Code/User/settings.json (mcp.servers)
                  workspace: .vscode/mcp.json (servers)`

func addLocationFlags(cmd *cobra.Command, client, scope, config *string, dryRun *bool) {
	fl := cmd.Flags()
	fl.StringVar(client, "client", wrap.ClaudeDesktop, "MCP `client` whose config to edit: "+strings.Join(wrap.Clients, ", "))
	fl.StringVar(scope, "scope", wrap.ScopeUser, "which config of the client: user or workspace")
	fl.StringVar(config, "config", "", "edit this config `file` instead of the client's usual one")
	fl.BoolVar(dryRun, "dry-run", false, "show the command before and after, write nothing")
	_ = cmd.RegisterFlagCompletionFunc("client", cobra.FixedCompletions(wrap.Clients, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("scope", cobra.FixedCompletions([]string{wrap.ScopeUser, "workspace"}, cobra.ShellCompDirectiveNoFileComp))
}

func checkLocation(cmd *cobra.Command, client, scope, config string) error {
	if cmd.Flags().Changed("config") && config == "" {
		return cmdutil.FlagErrorf("--config needs a file path")
	}
	if _, _, err := wrap.Locate(client, scope, config, wrap.Env{}); err != nil {
		return cmdutil.FlagErrorWrap(err)
	}
	return nil
}

// NewCmdWrap builds `mcpward wrap`.
func NewCmdWrap(f *cmdutil.Factory, runF func(context.Context, *WrapOptions) error) *cobra.Command {
	opts := &WrapOptions{IO: f.IOStreams, Env: wrap.UserEnv(f.Getenv, f.Getwd, f.LookupEnv), Executable: f.Executable}
	cmd := &cobra.Command{
		Use:   "wrap <server> [flags] [-- <mcpward proxy flags…>]",
		Short: "Run one server of an MCP client's config through the mcpward shim",
		Long: `Rewrite one server entry of an MCP client's config so the client starts it
through 'mcpward proxy', which records its traffic. The entry's command
becomes mcpward and its args become

  ["proxy", "--label", <label>, <mcpward proxy flags…>, "--", <original command>, <original args…>]

The label names the server's session logs; it is the server's name in the
config unless --label (or a --label among the proxy flags) says otherwise,
so "node build/index.js" is recorded as "weather", not "index.js".

Everything else in the file stays byte for byte as it was (indentation,
key order, comments, line endings). Before the first wrap the file is
copied to <file>.mcpward-backup; 'mcpward unwrap' puts it back. Edits of
one file are serialised by a lock on <file>.mcpward.lock (removed after the
edit), so concurrent wraps of different servers all land; a read-only file is
refused.

The client is pointed at this mcpward binary, or at --binary PATH. A binary
that 'go run' built (in the Go build cache or a temporary directory) is gone
after the run: wrap refuses it (exit 4) and says how to install mcpward.

Remote (url) servers cannot go through the stdio shim: use
'mcpward proxy --target URL' and point the client at its --listen address.

` + clientHelp,
		Example: `  mcpward wrap weather
  mcpward wrap github --client claude-code -- --label github --redact-secrets
  mcpward wrap memory --client vscode --scope workspace -- --otlp-endpoint http://127.0.0.1:4318/v1/traces`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if at := cmd.ArgsLenAtDash(); at >= 0 {
				opts.ProxyFlags = append([]string(nil), args[at:]...)
				args = args[:at]
			}
			if len(args) != 1 {
				return cmdutil.FlagErrorf("wrap takes one server name, got %d", len(args))
			}
			opts.Server = args[0]
			if err := checkLocation(cmd, opts.Client, opts.Scope, opts.Config); err != nil {
				return err
			}
			for _, name := range []string{"binary", "mcpward"} {
				if cmd.Flags().Changed(name) && !filepath.IsAbs(opts.Mcpward) {
					return cmdutil.FlagErrorf("--%s must be an absolute path, got %q", name, opts.Mcpward)
				}
			}
			if err := checkProxyFlags(opts.ProxyFlags); err != nil {
				return err
			}
			if cmd.Flags().Changed("label") {
				if err := session.CheckLabel(opts.Label); err != nil {
					return cmdutil.FlagErrorf("--label: %v", err)
				}
				if hasLabel(opts.ProxyFlags) {
					return cmdutil.FlagErrorf("--label is given twice (before and after --)")
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return wrapRun(opts)
		},
	}
	addLocationFlags(cmd, &opts.Client, &opts.Scope, &opts.Config, &opts.DryRun)
	cmd.Flags().StringVar(&opts.Label, "label", "", "`label` of the server's session logs (default: the server's name in the config)")
	cmd.Flags().StringVar(&opts.Mcpward, "binary", "", "absolute `path` of the mcpward binary the client should run (default: this one, unless 'go run' built it)")
	// The flag's first name, kept for the scripts that use it.
	cmd.Flags().StringVar(&opts.Mcpward, "mcpward", "", "the same as --binary")
	_ = cmd.Flags().MarkHidden("mcpward")
	return cmd
}

// checkProxyFlags parses the carried flags with the proxy command's flag set,
// so a typo fails now rather than when the client starts the server.
func checkProxyFlags(flags []string) error {
	if len(flags) == 0 {
		return nil
	}
	if !strings.HasPrefix(flags[0], "-") {
		return cmdutil.FlagErrorf("after -- come mcpward proxy flags, not %q (the server command is taken from the config)", flags[0])
	}
	for _, fl := range flags {
		if fl == "--" {
			return cmdutil.FlagErrorf("the mcpward proxy flags after -- cannot contain another --")
		}
	}
	if err := proxyflags.Check(flags); err != nil {
		return cmdutil.FlagErrorf("mcpward proxy flags after --: %v", err)
	}
	return nil
}

// open locates and reads the config file.
func open(client, scope, config string, env wrap.Env) (*wrap.File, wrap.Target, error) {
	path, target, err := wrap.Locate(client, scope, config, env)
	if err != nil {
		return nil, target, cmdutil.FlagErrorWrap(err)
	}
	f, err := wrap.Open(path)
	if err != nil {
		err = fault.Input(fmt.Errorf("%s config %w", client, err))
		if config == "" {
			err = fault.WithHint(err, "give the file with --config PATH, or pick another --client or --scope")
		}
		return nil, target, err
	}
	return f, target, nil
}

// editErr classifies an error of Wrap or Unwrap on file path.
func editErr(path string, err error) error {
	err = fault.Input(fmt.Errorf("%s: %w", path, err))
	if errors.Is(err, wrap.ErrRemote) {
		return fault.WithHint(err, "record a remote server with 'mcpward proxy --target URL --listen 127.0.0.1:7000' and point the client at the listen address")
	}
	return err
}

func wrapRun(opts *WrapOptions) error {
	f, target, err := open(opts.Client, opts.Scope, opts.Config, opts.Env)
	if err != nil {
		return err
	}
	defer f.Close()
	f.BeforeCommit = opts.beforeCommit
	bin, transient := opts.Mcpward, ""
	if bin == "" {
		if bin, err = opts.Executable(); err != nil {
			return fmt.Errorf("find the mcpward binary: %w (give it with --binary PATH)", err)
		}
		if abs, err := filepath.Abs(bin); err == nil {
			bin = abs
		}
		transient = wrap.TransientBinary(bin, opts.Env)
	}
	out, err := wrap.Wrap(f.Data, target, opts.Server, wrap.Spec{Mcpward: bin, Flags: withLabel(opts.ProxyFlags, opts.Label, opts.Server)})
	if errors.Is(err, wrap.ErrAlreadyWrapped) {
		fmt.Fprintf(opts.IO.ErrOut, "%s: server %q already runs through mcpward; nothing to do\n", f.Path, opts.Server)
		return nil
	}
	if err != nil {
		return editErr(f.Path, err)
	}
	if opts.DryRun {
		return showChange(opts.IO.Out, f.Data, out, target, opts.Server)
	}
	if transient != "" {
		// The client would start a binary that is gone after this run.
		return fault.WithHint(fault.Input(fmt.Errorf("not writing %s into %s: %s", bin, f.Path, transient)),
			"install mcpward first (from a clone: go install ./cmd/mcpward) and run 'mcpward wrap' again, or name the binary with --binary PATH")
	}
	if err := f.CheckWritable(); err != nil {
		return fault.Input(err)
	}
	wrote, err := f.SaveBackup()
	if err != nil {
		return fault.Input(fmt.Errorf("back up %s: %w", f.Path, err))
	}
	if err := f.Commit(out); err != nil {
		return fault.Input(err)
	}
	fmt.Fprintf(opts.IO.Out, "wrapped %q in %s\n", opts.Server, f.Path)
	if wrote {
		fmt.Fprintf(opts.IO.ErrOut, "backup of the original: %s\n", f.BackupPath())
	}
	fmt.Fprintf(opts.IO.ErrOut, "restart the client to apply; undo with: mcpward unwrap %s%s\n", opts.Server, locationArgs(opts.Client, opts.Scope, opts.Config))
	return nil
}

// withLabel puts "--label <label>" before the proxy flags unless they set
// one: the log is named after the config's entry ("weather"), not after a
// word of its command line ("index.js" of node build/index.js). An empty
// label is the server's name, made safe as a file name.
func withLabel(flags []string, label, server string) []string {
	if hasLabel(flags) {
		return flags
	}
	if label == "" {
		label = session.SanitizeLabel(server)
	}
	return append([]string{"--label", label}, flags...)
}

// hasLabel reports whether the proxy flags set --label.
func hasLabel(flags []string) bool {
	for _, fl := range flags {
		if fl == "--label" || fl == "-label" || strings.HasPrefix(fl, "--label=") || strings.HasPrefix(fl, "-label=") {
			return true
		}
	}
	return false
}

func locationArgs(client, scope, config string) string {
	var b strings.Builder
	if client != wrap.ClaudeDesktop {
		b.WriteString(" --client " + client)
	}
	if scope != wrap.ScopeUser {
		b.WriteString(" --scope " + scope)
	}
	if config != "" {
		b.WriteString(" --config " + config)
	}
	return b.String()
}

// showChange prints the entry's command line before and after.
func showChange(w io.Writer, before, after []byte, t wrap.Target, server string) error {
	b, err := wrap.CommandLine(before, t, server)
	if err != nil {
		return err
	}
	a, err := wrap.CommandLine(after, t, server)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "before: %s\nafter:  %s\n", b, a)
	return nil
}

// NewCmdUnwrap builds `mcpward unwrap`.
func NewCmdUnwrap(f *cmdutil.Factory, runF func(context.Context, *UnwrapOptions) error) *cobra.Command {
	opts := &UnwrapOptions{IO: f.IOStreams, Env: wrap.UserEnv(f.Getenv, f.Getwd, f.LookupEnv)}
	cmd := &cobra.Command{
		Use:   "unwrap <server> [flags]",
		Short: "Take one server of an MCP client's config out of the mcpward shim",
		Long: `Undo 'mcpward wrap' for one server. When nothing else in the file changed
since the wrap, the backup is put back byte for byte; otherwise only the
entry's command and args are restored and the other edits are kept.

Once no server of the file runs through mcpward any more, the backup
(<file>.mcpward-backup) is removed, unless it alone still holds something
you typed: the shim flags of a server mcpsnoop wrapped, which wrap carried
over and unwrap does not put back. It then stays, and unwrap says why.

` + clientHelp,
		Example: `  mcpward unwrap weather
  mcpward unwrap memory --client vscode --scope workspace`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Server = args[0]
			if err := checkLocation(cmd, opts.Client, opts.Scope, opts.Config); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return unwrapRun(opts)
		},
	}
	addLocationFlags(cmd, &opts.Client, &opts.Scope, &opts.Config, &opts.DryRun)
	return cmd
}

func unwrapRun(opts *UnwrapOptions) error {
	f, target, err := open(opts.Client, opts.Scope, opts.Config, opts.Env)
	if err != nil {
		return err
	}
	defer f.Close()
	backup, err := f.Backup()
	if err != nil {
		return fault.Input(err)
	}
	out, restored, err := wrap.Unwrap(f.Data, backup, target, opts.Server)
	if errors.Is(err, wrap.ErrNotWrapped) {
		fmt.Fprintf(opts.IO.ErrOut, "%s: server %q does not run through mcpward; nothing to do\n", f.Path, opts.Server)
		return nil
	}
	if err != nil {
		return editErr(f.Path, err)
	}
	if opts.DryRun {
		return showChange(opts.IO.Out, f.Data, out, target, opts.Server)
	}
	if err := f.CheckWritable(); err != nil {
		return fault.Input(err)
	}
	if err := f.Commit(out); err != nil {
		return fault.Input(err)
	}
	how := ""
	if restored {
		how = " (restored from the backup)"
	}
	fmt.Fprintf(opts.IO.Out, "unwrapped %q in %s%s\n", opts.Server, f.Path, how)
	// The backup goes once no entry of the file runs through mcpward,
	// unless it alone holds something the user would lose (see
	// wrap.BackupNeeded for the reasons).
	note, err := f.TidyBackup(out)
	if err != nil {
		return fault.Input(err)
	}
	if note != "" {
		fmt.Fprintln(opts.IO.ErrOut, note)
	}
	return nil
}
