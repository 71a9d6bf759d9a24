// Package proxyflags is mcpward proxy's flag set and its validation,
// without the command: the proxy command parses its command line with it,
// and wrap checks the proxy flags it writes into a client config with it
// (Check), so that no command imports another.
package proxyflags

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/hostguard"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoopfiles"
	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/settings"
	"github.com/mcpward/mcpward/internal/transport"
)

// Options are the inputs of `mcpward proxy`.
type Options struct {
	IO        *iostreams.IOStreams
	Now       func() time.Time
	LookupEnv func(string) (string, bool)
	Environ   func() []string
	Getwd     func() (string, error)
	Version   string

	// Command is the stdio server's argv (after --).
	Command []string
	// Target is the upstream URL of the HTTP proxy.
	Target      *url.URL
	Listen      string
	AllowRemote bool
	// AllowHosts are the --allow-host names a loopback HTTP proxy accepts
	// in Host and Origin besides loopback ones.
	AllowHosts []string
	TLSCert    string
	TLSKey     string
	// BodyTimeout bounds the time a client may take to send a request
	// body to the HTTP proxy.
	BodyTimeout time.Duration

	Label     string
	TraceFile string
	NoTrace   bool
	// Grace is the time the server gets after a forwarded signal.
	Grace time.Duration

	// Redact is what the session log hides (--redact-*); the relayed bytes
	// are never changed.
	Redact redact.Config
	// ConfigFile is --config-file; ConfigPath the settings file that was
	// applied ("" for none).
	ConfigFile string
	ConfigPath string
	// TrustConfig (--trust-config) applies a settings file found in the
	// working directory whole, as if it were trusted (settings.TrustEnv).
	TrustConfig bool

	// OTLPEndpoint is the collector spans of completed calls go to;
	// OTLPHeaders the raw --otlp-header K=V flags, OTLPHeader them parsed
	// with ${ENV} expanded.
	OTLPEndpoint string
	OTLPHeaders  []string
	OTLPHeader   map[string]string

	// HubSocket is the live view's socket (default: hub.sock in the state
	// directory); NoFeed turns the live feed off.
	HubSocket string
	NoFeed    bool
}

// DefaultListen is the HTTP proxy's listen address: loopback only.
const DefaultListen = "127.0.0.1:7000"

// AddFlags defines mcpward proxy's flags on cmd, bound to o; --target
// lands in target (Parse checks and sets o.Target).
func AddFlags(cmd *cobra.Command, o *Options, target *string) {
	fl := cmd.Flags()
	fl.StringVar(target, "target", "", "upstream `URL` of an HTTP MCP server (HTTP reverse proxy mode)")
	fl.StringVar(&o.Listen, "listen", DefaultListen, "`address` the HTTP proxy listens on")
	fl.BoolVar(&o.AllowRemote, "allow-remote", false, "allow a --listen address that is not loopback")
	fl.StringArrayVar(&o.AllowHosts, "allow-host", nil, "accept this host `name` (or name:port) in Host and Origin on a loopback --listen, which refuses other names against DNS rebinding (repeatable)")
	fl.StringVar(&o.TLSCert, "tls-cert", "", "serve HTTPS with this certificate `file` (needs --tls-key)")
	fl.StringVar(&o.TLSKey, "tls-key", "", "private key `file` of --tls-cert")
	cmdutil.TimeoutVar(fl, &o.BodyTimeout, "body-timeout", proxy.DefaultBodyTimeout, "time a client may take to send a request body to the HTTP proxy before it gets 408")
	fl.StringVar(&o.Label, "label", "", "server label in the log file name (default: derived from the command or target)")
	fl.StringVar(&o.TraceFile, "trace-file", "", "write the session log to this `file` (appended) instead of the state directory")
	fl.BoolVar(&o.NoTrace, "no-trace", false, "relay only, record nothing")
	fl.DurationVar(&o.Grace, "grace", proxy.DefaultGrace, "time the server gets to exit after a forwarded signal before it is killed")
	fl.BoolVar(&o.Redact.Secrets, "redact-secrets", false, "hide secrets in the log: API keys, tokens, JWTs, credential-named members and arguments")
	fl.StringArrayVar(&o.Redact.Keys, "redact-key", nil, "hide the values of object members with this `name` (repeatable, case-insensitive)")
	fl.StringArrayVar(&o.Redact.Values, "redact-value", nil, "hide every match of this `regexp` in the log (repeatable)")
	fl.StringArrayVar(&o.Redact.Paths, "redact-path", nil, "hide the value at this `path` of each message, e.g. params.arguments.pin or $..token (repeatable)")
	fl.StringVar(&o.OTLPEndpoint, "otlp-endpoint", "", "send a span per completed call to this OTLP/HTTP collector `URL` (e.g. http://127.0.0.1:4318)")
	fl.StringArrayVar(&o.OTLPHeaders, "otlp-header", nil, "`K=V` header for the OTLP collector, ${ENV} expanded (repeatable)")
	fl.StringVar(&o.HubSocket, "hub-socket", "", "stream records live to the 'mcpward ui' hub at this socket `path` (default: hub.sock in the state directory)")
	fl.BoolVar(&o.NoFeed, "no-feed", false, "do not stream records to a running 'mcpward ui' (the log is written all the same)")
	fl.StringVar(&o.ConfigFile, "config", "", "read defaults from this settings `file` instead of ./.mcpward.toml or ~/.config/mcpward/config.toml")
	fl.BoolVar(&o.TrustConfig, "trust-config", false, "apply a ./.mcpward.toml whole, trace-file, hub-socket and otlp included, without 'mcpward trust' (as "+settings.TrustEnv+"=1 does)")
	// --config-file is the name this flag had; kept, hidden, for scripts.
	fl.StringVar(&o.ConfigFile, "config-file", "", "alias of --config")
	_ = fl.MarkHidden("config-file")
}

// Parse finishes parsing mcpward proxy's command line: the server command
// after --, the settings file for the flags not given, then the checks of
// Validate.
func Parse(cmd *cobra.Command, args []string, o *Options, target string) error {
	if at := cmd.ArgsLenAtDash(); at >= 0 {
		o.Command = append([]string(nil), args[at:]...)
		args = args[:at]
	}
	if len(args) > 0 {
		return cmdutil.FlagErrorf("unexpected argument %q (the server command goes after --)", args[0])
	}
	if err := o.ApplySettings(cmd); err != nil {
		return err
	}
	if err := o.Validate(cmd, target); err != nil {
		return err
	}
	return nil
}

// ApplySettings loads the settings file and sets the flags the user did
// not set from it: flags win. A repeatable flag given on the command line
// replaces the file's values for it.
func (o *Options) ApplySettings(cmd *cobra.Command) error {
	cwd := ""
	if o.Getwd != nil {
		cwd, _ = o.Getwd()
	}
	file, err := settings.LoadTrusting(o.ConfigFile, cwd, o.LookupEnv, o.TrustConfig, mcpsnoopfiles.Settings)
	if err != nil {
		return err
	}
	o.ConfigPath = file.Path
	if o.IO != nil {
		for _, n := range file.Notices { // mcpsnoop's file: what to write in .mcpward.toml
			fmt.Fprintf(o.IO.ErrOut, "mcpward: %s\n", n)
		}
		if line := file.IgnoredLine(); line != "" {
			fmt.Fprintf(o.IO.ErrOut, "mcpward: %s\n", line)
		}
	}
	fl := cmd.Flags()
	// --trace-file on the command line overrides the file's no-trace and
	// --no-trace its trace-file: they are one setting.
	outputSet := fl.Changed("trace-file") || fl.Changed("no-trace")
	for _, fv := range file.Flags() {
		f := fl.Lookup(fv.Flag)
		if f == nil || f.Changed || (outputSet && (fv.Flag == "trace-file" || fv.Flag == "no-trace")) {
			continue
		}
		if err := f.Value.Set(fv.Value); err != nil {
			return fault.Input(fmt.Errorf("config %s: %s: %w", file.Path, fv.Flag, err))
		}
	}
	return nil
}

// Validate checks the flags together; it sets Target from target and
// OTLPHeader from --otlp-header.
func (o *Options) Validate(cmd *cobra.Command, target string) error {
	switch {
	case len(o.Command) > 0 && target != "":
		return cmdutil.FlagErrorf("give either a server command after -- or --target, not both")
	case len(o.Command) == 0 && target == "":
		return cmdutil.FlagErrorf("no server: give a command after -- or --target URL")
	case o.NoTrace && o.TraceFile != "":
		return cmdutil.FlagErrorf("--no-trace and --trace-file contradict each other")
	case (o.TLSCert == "") != (o.TLSKey == ""):
		return cmdutil.FlagErrorf("--tls-cert and --tls-key go together")
	case o.Grace <= 0:
		return cmdutil.FlagErrorf("--grace must be positive, got %s", o.Grace)
	case o.BodyTimeout <= 0:
		return cmdutil.FlagErrorf("--body-timeout must be positive, got %s", o.BodyTimeout)
	}
	if o.Label != "" {
		if err := session.CheckLabel(o.Label); err != nil {
			return cmdutil.FlagErrorf("--label: %v", err)
		}
	}
	if _, err := redact.New(o.Redact); err != nil {
		return cmdutil.FlagErrorf("--redact-*: %v", err)
	}
	if err := o.validateOTLP(); err != nil {
		return err
	}
	if target == "" {
		for _, name := range []string{"listen", "allow-remote", "allow-host", "tls-cert", "tls-key", "body-timeout"} {
			if cmd.Flags().Changed(name) {
				return cmdutil.FlagErrorf("--%s applies only to the HTTP proxy (--target)", name)
			}
		}
		return nil
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return cmdutil.FlagErrorf("--target must be an http:// or https:// URL, got %q", target)
	}
	o.Target = u
	if err := CheckListen(o.Listen, o.AllowRemote); err != nil {
		return err
	}
	return CheckAllowHosts(o.AllowHosts)
}

// CheckListen refuses a non-loopback listen address unless allowRemote:
// a recording proxy open to the network would hand anyone a way to the
// server and a copy of its traffic (and serve would show this machine's
// recorded traffic). Shared by proxy and serve.
func CheckListen(addr string, allowRemote bool) error {
	loopback, err := hostguard.LoopbackListen(addr)
	if err != nil {
		return cmdutil.FlagErrorf("--listen must be host:port, got %q", addr)
	}
	if !loopback && !allowRemote {
		return cmdutil.FlagErrorf("--listen %s is not a loopback address; add --allow-remote to listen on the network", addr)
	}
	return nil
}

// CheckAllowHosts validates --allow-host: a host name or address, with or
// without a port, never a URL. Shared by proxy and serve.
func CheckAllowHosts(hosts []string) error {
	for _, h := range hosts {
		name, port := h, ""
		if hh, pp, err := net.SplitHostPort(h); err == nil {
			name, port = hh, pp
		}
		name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
		bad := name == "" || strings.ContainsAny(name, "/@ \t,?#") || strings.Contains(h, "://")
		if n, err := strconv.Atoi(port); port != "" && (err != nil || n < 1 || n > 65535) {
			bad = true
		}
		if bad {
			return cmdutil.FlagErrorf("--allow-host wants a host name, optionally with :port, got %q", h)
		}
	}
	return nil
}

// validateOTLP checks --otlp-endpoint and parses --otlp-header, expanding
// ${ENV} in values (an unset variable is an input error).
func (o *Options) validateOTLP() error {
	if o.OTLPEndpoint == "" {
		if len(o.OTLPHeaders) > 0 {
			return cmdutil.FlagErrorf("--otlp-header needs --otlp-endpoint")
		}
		return nil
	}
	u, err := url.Parse(o.OTLPEndpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return cmdutil.FlagErrorf("--otlp-endpoint must be an http:// or https:// URL, got %q", o.OTLPEndpoint)
	}
	for _, kv := range o.OTLPHeaders {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t:") || strings.ContainsAny(v, "\r\n\x00") {
			return cmdutil.FlagErrorf("--otlp-header must be NAME=VALUE, got %q", kv)
		}
		lookup := o.LookupEnv
		if lookup == nil {
			lookup = func(string) (string, bool) { return "", false }
		}
		ev, err := transport.ExpandEnv(v, lookup)
		if err != nil {
			return cmdutil.FlagErrorf("--otlp-header %s: %v", k, err)
		}
		if o.OTLPHeader == nil {
			o.OTLPHeader = map[string]string{}
		}
		o.OTLPHeader[k] = ev
	}
	return nil
}

// Check parses flags (what goes after -- in `mcpward wrap … -- FLAGS`) as
// mcpward proxy would, the server command aside, so that a typo fails now
// rather than when the client starts the server.
func Check(flags []string) error {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getwd: func() (string, error) { return "", nil }}
	o := &Options{IO: f.IOStreams, Now: f.Now, LookupEnv: f.StateEnv, Environ: f.Environ, Getwd: f.Getwd, Version: f.Version}
	var target string
	cmd := &cobra.Command{
		Use: "proxy",
		RunE: func(cmd *cobra.Command, args []string) error {
			return Parse(cmd, args, o, target)
		},
	}
	AddFlags(cmd, o, &target)
	cmdutil.AddStateDirFlag(cmd, f)
	cmd.SetArgs(append(append([]string(nil), flags...), "--", "server"))
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetContext(context.Background())
	return cmd.Execute()
}
