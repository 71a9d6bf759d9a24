// Package sessreplaycmd implements `mcpward sessions replay`: re-send one
// recorded request to its server and diff the answer with the recording.
package sessreplaycmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessionargs"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/replay"
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/sessionlog"
)

// ReplayOptions are the inputs of `sessions replay`.
type ReplayOptions struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory

	Log       string
	SessionID string
	CallID    string
	Seq       uint64
	Command   []string
	URL       string
	Cwd       string
	Headers   []string
	WithEnv   bool
	FreshMeta bool
	Params    string
	Set       []string
	ExitCode  bool
	JSON      bool
	Timeout   time.Duration
}

// NewCmdReplay builds `mcpward sessions replay`.
func NewCmdReplay(f *cmdutil.Factory, runF func(*ReplayOptions) error) *cobra.Command {
	opts := &ReplayOptions{IO: f.IOStreams, Factory: f}
	var command string
	cmd := &cobra.Command{
		Use:   "replay [LOG|ID] (--call ID | --seq N) [-- <server command…>]",
		Short: "Re-send a recorded request and diff the answer with the recording",
		Long: `Start (stdio) or reach (HTTP) the recorded server again, send one recorded
request and compare the answer with the recorded response.

The request is sent byte for byte as recorded, with its full _meta envelope,
unless --params (replace params), --set path=value (edit params, e.g.
--set arguments.city=Lyon) or --fresh-meta (this client's own
io.modelcontextprotocol/* envelope) change it. A log recorded with redaction
holds placeholders, and those are what is sent.

The server is the one of the session's start record: its argv and cwd
(stdio) or its upstream URL (HTTP). --command, -- <command…> and --url
override it. The log never holds environment values, only names: the server
gets this process's environment, or with --with-env only the recorded names
(values from this environment; names not set here are listed).

The command comes from a log file that may have been shared with you: it is
printed on stderr before it runs. With --exit-code, a different answer exits 1.`,
		Example: `  mcpward sessions replay run.jsonl --call 7
  mcpward sessions replay --session 01JD --seq 12 --set arguments.city=Lyon
  mcpward sessions replay run.jsonl --call '"abc"' --url http://127.0.0.1:8080/mcp --exit-code`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if at := cmd.ArgsLenAtDash(); at >= 0 {
				opts.Command = append([]string(nil), args[at:]...)
				args = args[:at]
			}
			if len(args) > 1 {
				return cmdutil.FlagErrorf("at most one log; got %d (put the server command after --)", len(args))
			}
			if len(args) == 1 {
				opts.Log = args[0]
			}
			if command != "" {
				if len(opts.Command) > 0 {
					return cmdutil.FlagErrorf("use --command or -- <command…>, not both")
				}
				opts.Command = strings.Fields(command)
			}
			if (opts.CallID == "") == (opts.Seq == 0) {
				return cmdutil.FlagErrorf("name the request with exactly one of --call ID and --seq N")
			}
			if len(opts.Command) > 0 && opts.URL != "" {
				return cmdutil.FlagErrorf("use a command or --url, not both")
			}
			if opts.Params != "" && !json.Valid([]byte(opts.Params)) {
				return cmdutil.FlagErrorf("--params is not valid JSON")
			}
			for _, s := range opts.Set {
				if k, _, ok := strings.Cut(s, "="); !ok || k == "" {
					return cmdutil.FlagErrorf("--set %q: want path=value", s)
				}
			}
			if opts.Timeout <= 0 {
				return cmdutil.FlagErrorf("--timeout must be positive")
			}
			if runF != nil {
				return runF(opts)
			}
			return replayRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.SessionID, "session", "", "the session `id` (prefix) the request belongs to")
	fl.StringVar(&opts.CallID, "call", "", "JSON-RPC `id` of the request (7, abc or '\"abc\"')")
	fl.Uint64Var(&opts.Seq, "seq", 0, "seq `N` of the request's record")
	fl.StringVar(&command, "command", "", "server `command` line (split on spaces; -- <command…> keeps arguments intact)")
	fl.StringVar(&opts.URL, "url", "", "send to this `URL` instead of the recorded target")
	fl.StringVar(&opts.Cwd, "cwd", "", "working `dir` of the server (default: the recorded cwd)")
	fl.StringArrayVar(&opts.Headers, "header", nil, "HTTP header `K=V` to send (credentials are never recorded; repeatable)")
	fl.BoolVar(&opts.WithEnv, "with-env", false, "give the server only the recorded environment variable names (values from this environment)")
	fl.BoolVar(&opts.FreshMeta, "fresh-meta", false, "send this client's own _meta envelope instead of the recorded one")
	fl.StringVar(&opts.Params, "params", "", "replace the request's params with this `JSON`")
	fl.StringArrayVar(&opts.Set, "set", nil, "edit params: `path=value` (value is JSON if it parses; repeatable)")
	fl.BoolVar(&opts.ExitCode, "exit-code", false, "exit 1 when the answer differs from the recording")
	cmdutil.AddJSONFlags(cmd, &opts.JSON, "sessions replay")
	cmdutil.TimeoutVar(fl, &opts.Timeout, "timeout", replay.DefaultTimeout, "request timeout")
	cmdutil.AddStateDirFlag(cmd, f)
	cmd.ValidArgsFunction = sessionargs.CompleteSessions(f)
	_ = cmd.RegisterFlagCompletionFunc("session", sessionargs.CompleteSessions(f))
	return cmd
}

func replayRun(opts *ReplayOptions) error {
	path, err := sessionargs.ResolveLog(opts.Factory, opts.Log, opts.SessionID)
	if err != nil {
		return err
	}
	var in io.Reader = opts.IO.In
	if path != sessionargs.Stdin {
		fh, err := os.Open(path)
		if err != nil {
			return fault.Input(fmt.Errorf("read session log: %w", err))
		}
		defer fh.Close()
		in = fh
	}
	// An mcpsnoop log is read as mcpward records (its meta record is the
	// start record replay takes the command from).
	rc, err := replay.Find(sessionlog.Normalize(in), replay.Selector{ID: opts.CallID, Seq: opts.Seq, Session: opts.SessionID})
	if err != nil {
		return fault.Input(fmt.Errorf("%s: %w", path, err))
	}
	ro := &replay.Options{URL: opts.URL, Cwd: opts.Cwd, Command: opts.Command, WithEnv: opts.WithEnv,
		FreshMeta: opts.FreshMeta, Set: opts.Set, ClientVersion: opts.Factory.Version, Timeout: opts.Timeout,
		Environ: opts.Factory.Environ}
	if opts.Params != "" {
		ro.Params = json.RawMessage(opts.Params)
	}
	if len(opts.Headers) > 0 {
		tf := cmdutil.TargetFlags{URL: "http://placeholder.invalid/", Headers: opts.Headers, Timeout: opts.Timeout}
		spec, err := tf.Spec("replay", opts.Factory.LookupEnv)
		if err != nil {
			return err
		}
		ro.Header = spec.Headers
	}
	spec, err := replay.Spec(rc, ro)
	if err != nil {
		return err
	}
	what := rc.Method + " id " + string(rc.ID.Raw())
	if spec.URL != "" {
		fmt.Fprintf(opts.IO.ErrOut, "mcpward: replaying %s (line %d) to %s\n", what, rc.Line, spec.URL)
	} else {
		fmt.Fprintf(opts.IO.ErrOut, "mcpward: replaying %s (line %d); running: %s\n", what, rc.Line, strings.Join(spec.Command, " "))
	}
	if rc.Redacted {
		fmt.Fprintln(opts.IO.ErrOut, "mcpward: warning: the recorded request was redacted; the placeholders are sent")
	}
	ctx := opts.Factory.Context
	if ctx == nil {
		return errors.New("replay: no context")
	}
	out, err := replay.Run(ctx, rc, ro)
	if err != nil {
		return err
	}
	for _, n := range out.MissingEnv {
		fmt.Fprintf(opts.IO.ErrOut, "mcpward: warning: recorded variable %s is not set here; the server runs without it\n", n)
	}
	if opts.JSON {
		type doc struct {
			Method   string          `json:"method"`
			ID       json.RawMessage `json:"id"`
			Line     int             `json:"line"`
			Target   string          `json:"target"`
			Exact    bool            `json:"exact"`
			Request  json.RawMessage `json:"request,omitempty"`
			Recorded json.RawMessage `json:"recorded,omitempty"`
			Response json.RawMessage `json:"response,omitempty"`
			Status   int             `json:"httpStatus,omitempty"`
			Ms       float64         `json:"durationMs"`
			Same     bool            `json:"same"`
			Changes  []replay.Change `json:"changes"`
		}
		d := doc{Method: rc.Method, ID: rc.ID.Raw(), Line: rc.Line, Target: out.Target, Exact: out.Exact,
			Request: valid(out.Request), Recorded: valid(rc.Response), Response: valid(out.Response), Status: out.HTTPStatus,
			Ms: float64(out.Elapsed.Microseconds()) / 1000, Same: len(out.Changes) == 0, Changes: out.Changes}
		if d.Changes == nil {
			d.Changes = []replay.Change{}
		}
		if err := render.JSON(opts.IO.Out, d); err != nil {
			return fmt.Errorf("write outcome: %w", err)
		}
	} else {
		w := opts.IO.Out
		fmt.Fprintf(w, "request: %s\n", out.Request)
		status := ""
		if out.HTTPStatus != 0 {
			status = fmt.Sprintf(" [http %d]", out.HTTPStatus)
		}
		fmt.Fprintf(w, "response%s: %s\n", status, orNone(out.Response))
		if rc.Response == nil {
			fmt.Fprintln(w, "no response was recorded")
		} else if len(out.Changes) == 0 {
			fmt.Fprintln(w, "same as recorded")
		} else {
			fmt.Fprintln(w, "differs from the recorded response:")
			for _, c := range out.Changes {
				switch c.Op {
				case "+":
					fmt.Fprintf(w, "  + %s: %s\n", c.Path, c.After)
				case "-":
					fmt.Fprintf(w, "  - %s: %s\n", c.Path, c.Before)
				default:
					fmt.Fprintf(w, "  ~ %s: %s -> %s\n", c.Path, c.Before, c.After)
				}
			}
		}
	}
	if opts.ExitCode && len(out.Changes) > 0 {
		return cmdutil.Verdict(result.Drift)
	}
	return nil
}

func valid(b []byte) json.RawMessage {
	if len(b) == 0 || !json.Valid(b) {
		return nil
	}
	return b
}

func orNone(b []byte) string {
	if b == nil {
		return "(none)"
	}
	return string(b)
}
