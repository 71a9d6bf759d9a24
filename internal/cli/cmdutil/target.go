package cmdutil

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/transport"
)

// TargetFlags are the flags every command that talks to a server shares:
// how to reach it (--fixture, --url, or a command after --) and how to run
// it (--env, --cwd, --home, --isolate-home, --header, --timeout).
type TargetFlags struct {
	Fixture     string
	FixtureHTTP bool
	URL         string
	SSE         bool
	Env         []string
	Cwd         string
	Home        string
	IsolateHome bool
	Headers     []string
	Timeout     time.Duration
	Command     []string
	// CommandFlag and ArgsFlag are --command and --args, as init takes
	// them: another way to give Command.
	CommandFlag, ArgsFlag string
	// CommandTwice: --command and a command after -- were both given
	// (Validate refuses it).
	CommandTwice bool
}

// AddTargetFlags registers the target flags on cmd.
func AddTargetFlags(cmd *cobra.Command, tf *TargetFlags) {
	fl := cmd.Flags()
	fl.StringVar(&tf.Fixture, "fixture", "", "use an embedded fixture server (see 'mcpward fixture list')")
	fl.BoolVar(&tf.FixtureHTTP, "fixture-http", false, "talk to the fixture through its HTTP framing (in-process) instead of stdio")
	fl.StringVar(&tf.URL, "url", "", "Streamable HTTP (or legacy HTTP+SSE) endpoint of the server")
	fl.BoolVar(&tf.SSE, "sse", false, "use the deprecated HTTP+SSE transport of 2024-11-05 for --url")
	fl.StringArrayVar(&tf.Env, "env", nil, "set `K=V` in the server's environment (repeatable)")
	fl.StringVar(&tf.Cwd, "cwd", "", "working `dir`ectory of the server process")
	fl.StringVar(&tf.Home, "home", "", "HOME `dir`ectory of the server process")
	fl.BoolVar(&tf.IsolateHome, "isolate-home", false, "point HOME and XDG dirs at a fresh temporary folder, removed afterwards (not a sandbox)")
	fl.StringArrayVar(&tf.Headers, "header", nil, "send HTTP header `K=V` (only ${ENV} is interpolated; repeatable)")
	fl.StringVar(&tf.CommandFlag, "command", "", "stdio server `command`, as init takes it (the same as -- <command…>)")
	fl.StringVar(&tf.ArgsFlag, "args", "", "the --command's arguments, space-separated")
	TimeoutVar(fl, &tf.Timeout, "timeout", client.DefaultRequestTimeout, "per-request timeout")
	_ = cmd.RegisterFlagCompletionFunc("fixture", FixtureNames)
	_ = cmd.MarkFlagDirname("cwd")
	_ = cmd.MarkFlagDirname("home")
}

// SetCommand takes the words after "--" (or --command and --args) as the
// stdio server command.
func (tf *TargetFlags) SetCommand(cmd *cobra.Command, args []string) []string {
	if at := cmd.ArgsLenAtDash(); at >= 0 {
		tf.Command = append([]string(nil), args[at:]...)
		args = args[:at]
	}
	if tf.CommandFlag != "" {
		tf.CommandTwice = len(tf.Command) > 0
		if !tf.CommandTwice {
			tf.Command = append([]string{tf.CommandFlag}, strings.Fields(tf.ArgsFlag)...)
		}
	}
	return args
}

// Validate checks flag combinations that need no environment.
func (tf *TargetFlags) Validate() error {
	if tf.Timeout <= 0 {
		return FlagErrorf("--timeout must be positive, got %s", tf.Timeout)
	}
	if tf.CommandTwice {
		return FlagErrorf("--command and a command after -- exclude each other: give one")
	}
	if tf.ArgsFlag != "" && tf.CommandFlag == "" {
		return FlagErrorf("--args needs --command (or give the whole command after --)")
	}
	for _, kv := range tf.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return FlagErrorf("--env %q: want K=V", kv)
		}
	}
	for _, kv := range tf.Headers {
		if _, _, err := transport.ParseHeaderFlag(kv); err != nil {
			return FlagErrorWrap(fmt.Errorf("--header %q: %w", kv, err))
		}
	}
	if tf.SSE && tf.URL == "" {
		return FlagErrorf("--sse needs --url")
	}
	if tf.FixtureHTTP && tf.Fixture == "" {
		return FlagErrorf("--fixture-http needs --fixture")
	}
	if len(tf.Env) > 0 && len(tf.Command) == 0 && (tf.Fixture == "" || tf.FixtureHTTP) {
		return FlagErrorf("--env applies only to a server command (--command CMD, or -- <command…>) or a --fixture over stdio")
	}
	if (tf.Cwd != "" || tf.Home != "" || tf.IsolateHome) && len(tf.Command) == 0 {
		return FlagErrorf("--cwd, --home and --isolate-home apply only to a server command (--command CMD, or -- <command…>)")
	}
	if len(tf.Headers) > 0 && tf.URL == "" {
		return FlagErrorf("--header applies only to --url targets")
	}
	return nil
}

// Shaped reports whether a flag that only shapes a target given by flags
// (--fixture-http, --sse, --env, --cwd, --home, --isolate-home, --header)
// was given.
func (tf *TargetFlags) Shaped() bool {
	return tf.FixtureHTTP || tf.SSE || len(tf.Env) > 0 || tf.Cwd != "" || tf.Home != "" || tf.IsolateHome || len(tf.Headers) > 0
}

// Set reports whether any way to reach a server was given.
func (tf *TargetFlags) Set() bool {
	return tf.Fixture != "" || tf.URL != "" || len(tf.Command) > 0
}

// ConfigSource is how compat and fuzz resolve a config target next to
// these flags: --timeout replaces the target's timeoutMs when given
// (timeoutSet), and is the timeout of a target that sets none.
func (tf *TargetFlags) ConfigSource(lookup func(string) (string, bool), timeoutSet bool) connect.Source {
	src := connect.Source{Lookup: lookup, DefaultTimeout: tf.Timeout}
	if timeoutSet {
		src.Timeout = tf.Timeout
	}
	return src
}

// FlagError marks an error of the flags' entry as the command line's
// (contract.Flags).
func (tf *TargetFlags) FlagError(err error) error { return FlagErrorWrap(err) }

// RequestTimeout is --timeout (contract.Flags).
func (tf *TargetFlags) RequestTimeout() time.Duration { return tf.Timeout }

// Entry is the config entry the flags name, as a file's target would
// hold it: a command given as one string split (connect.SplitCommand), the
// --env and --header values by name (a header given twice keeps both
// values, joined by ", " as RFC 9110 §5.3 allows). Its ${VAR} stay
// unresolved, as in the file.
func (tf *TargetFlags) Entry() (*config.Target, error) {
	command, err := connect.SplitCommand(tf.Command)
	if err != nil {
		return nil, FlagErrorWrap(err)
	}
	t := &config.Target{
		Fixture:     tf.Fixture,
		FixtureHTTP: tf.FixtureHTTP,
		URL:         tf.URL,
		SSE:         tf.SSE,
		Cwd:         tf.Cwd,
		Home:        tf.Home,
		IsolateHome: tf.IsolateHome,
		Env:         config.EnvOf(tf.Env),
	}
	if len(command) > 0 {
		t.Command, t.Args = command[0], command[1:]
	}
	for _, kv := range tf.Headers {
		k, v, err := transport.ParseHeaderFlag(kv)
		if err != nil {
			return nil, FlagErrorWrap(fmt.Errorf("--header %q: %w", kv, err))
		}
		if t.Headers == nil {
			t.Headers = map[string]string{}
		}
		if old, ok := t.Headers[k]; ok {
			v = old + ", " + v
		}
		t.Headers[k] = v
	}
	return t, nil
}

// Spec resolves the flags' entry (Entry) to a connection through
// connect.Resolve, as a config file's target is, with --timeout.
func (tf *TargetFlags) Spec(name string, lookup func(string) (string, bool)) (*connect.Spec, error) {
	t, err := tf.Entry()
	if err != nil {
		return nil, err
	}
	s, _, err := connect.Resolve(name, t, &connect.Source{Lookup: lookup, Flags: tf.FlagError, Timeout: tf.Timeout})
	return s, err
}
