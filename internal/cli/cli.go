// Package cli is the root of the mcpward command tree: it builds the
// Factory, registers every command, runs the invocation and maps its outcome
// to an exit code in exactly one place (exitCode).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/recordcmd"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/remote"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/syserr"
	"github.com/mcpward/mcpward/internal/transport"
)

// version is set at build time with -ldflags "-X …/internal/cli.version=v1.2.3".
var version = ""

// Version returns the mcpward version: the ldflags value, else the module
// version recorded by the Go toolchain, else "dev".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// Main runs mcpward with the process's arguments and streams and returns
// the exit code. It is the whole program: cmd/mcpward calls it, and the
// script tests register it as the mcpward command.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f := &cmdutil.Factory{
		IOStreams:  iostreams.System(),
		Version:    Version(),
		Now:        time.Now,
		LookupEnv:  os.LookupEnv,
		Environ:    os.Environ,
		Executable: os.Executable,
		Getwd:      os.Getwd,
		Context:    ctx,
	}
	return Run(f, os.Args[1:])
}

// Run executes one invocation with the given Factory and arguments and
// returns the exit code. Panics are recovered and reported as internal
// errors (exit 5).
func Run(f *cmdutil.Factory, args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(f.IOStreams.ErrOut, "mcpward: internal error: %v\n", r)
			fmt.Fprintf(f.IOStreams.ErrOut, "hint: this is a bug in mcpward; please report it with the command you ran\n")
			code = result.Internal
		}
	}()
	args = rewriteShimArgs(args)
	root := newCmdRootFor(f, args)
	root.SetArgs(args)
	root.SetIn(f.IOStreams.In)
	root.SetOut(f.IOStreams.Out)
	root.SetErr(f.IOStreams.ErrOut)
	cmd, err := root.ExecuteContextC(f.Context)
	if err != nil && cmd == root && surfaceprintForm(args) {
		err = fault.WithHint(err, "mcp-surfaceprint's inspect form is a command here: "+remote.CommandLine(append([]string{"mcpward", "inspect"}, args...)))
	}
	return exitCode(f.IOStreams.ErrOut, cmd, err)
}

// rewriteShimArgs turns the short form `mcpward -- <cmd…>` into
// `mcpward proxy -- <cmd…>`, and, as mcpsnoop's root took them, proxy
// flags before the "--": `mcpward --label x -- <cmd…>` is `mcpward proxy
// --label x -- <cmd…>` (the root itself has no flags but --help and
// --version).
func rewriteShimArgs(args []string) []string {
	if len(args) == 0 {
		return args
	}
	switch a := args[0]; {
	case a == "--",
		strings.HasPrefix(a, "-") && !slices.Contains([]string{"-h", "--help", "-v", "--version"}, a) && slices.Contains(args, "--"):
		return append([]string{"proxy"}, args...)
	}
	return args
}

// surfaceprintForm reports whether args, which the root command turned
// away, look like mcp-surfaceprint's default mode: a server command as one
// quoted string ("uv run server.py"), or inspect's flags before a command
// (--json, --save …).
func surfaceprintForm(args []string) bool {
	var quoted, flags, words bool
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		switch {
		case !strings.HasPrefix(a, "-"):
			words = true
			quoted = quoted || strings.ContainsAny(a, " \t")
		case slices.Contains([]string{"--json", "--save", "--no-signals", "--timeout", "--env", "--cwd", "--home", "--isolate-home", "--quiet", "--verbose"}, name):
			flags = true
		}
	}
	return quoted || flags && words
}

// exitCode is the one place where an outcome becomes an exit code (a
// verdict's, or the error's by result.ExitCode, as a fleet maps it) and
// where an error reaches the user, as one line plus at most one hint.
func exitCode(w io.Writer, cmd *cobra.Command, err error) int {
	if err == nil {
		return result.Clean
	}
	var verdict *cmdutil.VerdictError
	if errors.As(err, &verdict) {
		if verdict.Reason != "" {
			fmt.Fprintf(w, "mcpward: %s\n", verdict.Reason)
		}
		if hint := cmdutil.BareTimeoutHint(cmd); verdict.TimedOut && hint != "" {
			fmt.Fprintf(w, "hint: %s\n", hint)
		}
		return verdict.Code
	}
	if isCobraUsage(err) {
		// cobra's own parse errors are plain errors: flag errors here.
		err = cmdutil.FlagErrorWrap(err)
	}
	code := result.ExitCode(err, syserr.Refused)
	fmt.Fprintf(w, "mcpward: %s\n", oneLine(err.Error()))
	// A server that failed usually said why on stderr: its last lines,
	// once, under a heading.
	fmt.Fprint(w, transport.StderrBlock(transport.StderrOf(err), recordcmd.StderrLines))
	switch {
	case isTimeout(err) && cmdutil.BareTimeoutHint(cmd) != "":
		fmt.Fprintf(w, "hint: %s\n", cmdutil.BareTimeoutHint(cmd))
	case fault.HintOf(err) != "":
		fmt.Fprintf(w, "hint: %s\n", fault.HintOf(err))
	case code == result.Usage && cmd != nil && isFlagError(err):
		fmt.Fprintf(w, "hint: run '%s --help' for usage\n", cmd.CommandPath())
	case code == result.Internal:
		fmt.Fprintf(w, "hint: this looks like a bug in mcpward; please report it with the command you ran\n")
	}
	return code
}

// isTimeout reports whether err is a request that was not answered in time.
func isTimeout(err error) bool {
	return errors.Is(err, transport.ErrTimeout) || errors.Is(err, context.DeadlineExceeded)
}

func isFlagError(err error) bool {
	var fe *cmdutil.FlagError
	return errors.As(err, &fe)
}

// isCobraUsage recognises cobra's own argument and flag parse errors, which
// it returns as plain errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "requires at most", "requires exactly", "if any flags in the group", "none of the others can be", "required flag(s)"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.ReplaceAll(s, "\n", " ")
}
