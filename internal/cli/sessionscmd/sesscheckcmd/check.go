// Package sesscheckcmd implements `mcpward sessions check`: run the traffic rules
// over recorded session logs, compare tool definitions with their
// baselines, and gate on signals, rule ids and levels.
package sesscheckcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessionargs"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoopfiles"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/settings"
	"github.com/mcpward/mcpward/internal/termsafe"
	"github.com/mcpward/mcpward/internal/traffic"
	"github.com/mcpward/mcpward/internal/verdict"
)

// DefaultSlow is the --slow threshold: a call that took less is not slow
// enough to name in a report.
const DefaultSlow = time.Second

// CheckOptions are the inputs of `sessions check`.
type CheckOptions struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	Version string

	Logs      []string
	SessionID string
	Label     string

	FailOn      string
	Format      string
	BaselineDir string
	MaxDuration time.Duration
	ExpectTools []string
	ForbidTools []string
	MaxResults  int
	// Tofu records a tool baseline on first sight even for logs given as
	// files; NoTofu never records one. Without either, the state
	// directory's own logs (no LOG argument) are baselined on first sight
	// unless the settings file says no-tofu.
	Tofu   bool
	NoTofu bool
	// Slow is the duration at or over which a finished call is listed
	// under "slow:" in the text report (0: the slowest few, whatever
	// they took).
	Slow time.Duration

	gate verdict.TrafficGate
}

// NewCmdCheck builds `mcpward sessions check`.
func NewCmdCheck(f *cmdutil.Factory, runF func(*CheckOptions) error) *cobra.Command {
	opts := &CheckOptions{IO: f.IOStreams, Factory: f, Version: f.Version}
	cmd := &cobra.Command{
		Use:   "check [LOG…]",
		Short: "Check recorded sessions against the protocol rules",
		Long: `Run the traffic rules over session logs (default: every log in the state
directory, narrowed by --session or --label) and gate on what they find.
A LOG of - is read from standard input. mcpward's logs and mcpsnoop's are
read as they are.

--fail-on takes any mix of signals (` + verdict.SignalNames() + `),
rule ids (message.id_reused, transport.server_request…), levels (must, should,
may) and classes (violation, risky, info). Without --fail-on the gate is
mcpsnoop's, ` + verdict.DefaultTrafficFailOn + `: a failed call (a JSON-RPC error, an isError
result, an HTTP status of 400 or more) fails the check with exit 1, as do
protocol warnings and invalid frames; --fail-on violation,risky passes a
session whose only findings are failed calls and other info. Info findings
outside these signals (deprecation notes, observations such as
cache.stale_refetch) fail only when named. The report marks each finding the
gate selected. A selected MUST-level violation exits 3, any other selected
finding or failed assertion exits 1, nothing selected 0;
an unreadable log, or a file with no session records at all, exits 4. A log
with torn or corrupt lines or missing frames (seq gaps, lost records) is
INCOMPLETE: the rest is still checked and listed, and the run exits 2, which
outranks every finding.

Tool definitions are compared with their baseline ('mcpward sessions baseline').
Checking the state directory's own logs (no LOG argument), a server identity
seen for the first time gets its complete tools/list recorded as its baseline
(trust on first use; later lists are judged against it). A LOG given as a file
or on stdin is only read against existing baselines: --tofu records them too,
--no-tofu (or no-tofu = true in .mcpward.toml) never does.`,
		Example: `  mcpward sessions check
  mcpward sessions check run.jsonl --fail-on must,transport.server_request --format sarif > traffic.sarif
  mcpward sessions check --label weather --expect-tool get_forecast --max-duration 2s`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Logs = args
			g, err := verdict.ParseTrafficGate(opts.FailOn)
			if err != nil {
				return cmdutil.FlagErrorWrap(err)
			}
			opts.gate = g
			if opts.MaxDuration < 0 {
				return cmdutil.FlagErrorf("--max-duration must not be negative")
			}
			if opts.Slow < 0 {
				return cmdutil.FlagErrorf("--slow must not be negative")
			}
			if opts.MaxResults < 1 {
				return cmdutil.FlagErrorf("--max-results must be at least 1")
			}
			if opts.Tofu && opts.NoTofu {
				return cmdutil.FlagErrorf("--tofu and --no-tofu contradict each other")
			}
			if !opts.Tofu && !opts.NoTofu {
				no, err := settingsNoTofu(f)
				if err != nil {
					return err
				}
				opts.NoTofu = no
			}
			if runF != nil {
				return runF(opts)
			}
			return checkRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.FailOn, "fail-on", verdict.DefaultTrafficFailOn, "`list` of signals, rule ids, levels and classes that fail the check")
	cmdutil.AddFormatFlags(cmd, &opts.Format, "sessions check")
	fl.StringVar(&opts.BaselineDir, "baseline", "", "tool baseline `dir` (default <state>/baselines)")
	fl.BoolVar(&opts.Tofu, "tofu", false, "record a tool baseline on first sight for logs given as files too")
	fl.BoolVar(&opts.NoTofu, "no-tofu", false, "never record a tool baseline on first sight (trust on first use)")
	fl.DurationVar(&opts.MaxDuration, "max-duration", 0, "fail if a finished tools/call took longer than `D`")
	fl.StringArrayVar(&opts.ExpectTools, "expect-tool", nil, "fail unless a tools/call names `NAME` (repeatable)")
	fl.StringArrayVar(&opts.ForbidTools, "forbid-tool", nil, "fail if a tools/call names `NAME` (repeatable)")
	fl.StringVar(&opts.SessionID, "session", "", "check only the session with this `id` (or id prefix)")
	fl.StringVar(&opts.Label, "label", "", "check only sessions of this server `label`")
	fl.IntVar(&opts.MaxResults, "max-results", verdict.MaxResults, "report at most `N` findings (the rest are counted)")
	fl.DurationVar(&opts.Slow, "slow", DefaultSlow, "list the slowest calls that took `D` or longer (0: the slowest few, however fast)")
	cmdutil.AddStateDirFlag(cmd, f)
	cmd.ValidArgsFunction = sessionargs.CompleteSessions(f)
	_ = cmd.RegisterFlagCompletionFunc("session", sessionargs.CompleteSessions(f))
	_ = cmd.RegisterFlagCompletionFunc("label", sessionargs.CompleteLabels(f))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cmdutil.CompleteLazyList(gateWords))
	return cmd
}

// A sessionReport is what one session contributed.
type sessionReport struct {
	file    string
	session *calls.Session
	summary calls.Summary
	// slow counts the session's finished calls that took --slow or longer
	// (the summary keeps only the slowest few of them).
	slow int
}

func checkRun(ctx context.Context, opts *CheckOptions) error {
	paths, err := sessionargs.Resolve(opts.Factory, opts.Logs, opts.SessionID, opts.Label)
	if err != nil {
		return err
	}
	dir := opts.BaselineDir
	if dir == "" {
		state, err := sessionargs.Layout(opts.Factory)
		if err != nil {
			return err
		}
		dir = state.Baselines()
	}
	c, err := verdict.NewSessionsCheck(opts.Version, opts.FailOn, opts.MaxResults)
	if err != nil {
		return cmdutil.FlagErrorWrap(err)
	}
	res, col := c.Result(), c.Collector()
	var reports []sessionReport
	calledTools := map[string]bool{}
	var slow []string
	slowCalls := map[string]int{} // session id → finished calls at or over --slow
	for _, path := range paths {
		display, file := displayPath(opts, path), displayPath(opts, path)
		if path == sessionargs.Stdin {
			// Findings from standard input point at no file (as
			// mcpsnoop's SARIF); messages say where the log came from.
			display, file = "stdin", ""
		}
		chk := c.Log(file, func(c *calls.Call) {
			if (c.State == calls.Completed || c.State == calls.Failed || c.State == calls.LateResult) && c.Duration() >= opts.Slow {
				slowCalls[c.Session]++
			}
			if c.Method != mcp.MethodToolsCall {
				return
			}
			calledTools[c.Name] = true
			if opts.MaxDuration > 0 && (c.State == calls.Completed || c.State == calls.Failed || c.State == calls.LateResult) && c.Duration() > opts.MaxDuration {
				slow = append(slow, fmt.Sprintf("%s:%d tools/call %q took %v", display, c.ReqLine, c.Name, c.Duration()))
			}
		})
		add := chk.Add
		narrow := len(opts.Logs) > 0 && (opts.SessionID != "" || opts.Label != "")
		if narrow {
			// A log named on the command line may hold several sessions:
			// --session and --label narrow within it, as for export.
			add = func(r *session.Record, line int) {
				if (opts.SessionID == "" || strings.HasPrefix(r.Session, opts.SessionID) || r.Label == opts.SessionID) &&
					(opts.Label == "" || r.Label == opts.Label) {
					chk.Add(r, line)
				}
			}
		}
		problems, skipped, err := sessionargs.ReadLog(ctx, opts.IO.In, path, add)
		if err != nil {
			return err
		}
		chk.Finish()
		if narrow && len(chk.Store().Sessions()) == 0 {
			return fault.Input(fmt.Errorf("%s: no session matches --session %q --label %q", display, opts.SessionID, opts.Label))
		}
		for _, c := range chk.Store().Open() {
			if c.Method == mcp.MethodToolsCall {
				calledTools[c.Name] = true
			}
		}
		err = c.Read(chk, display, problems, skipped, func(ss *calls.Session) {
			reports = append(reports, sessionReport{file: display, session: ss, summary: ss.Summary(), slow: slowCalls[ss.ID]})
			drift(opts, res, col, dir, file, ss)
		})
		if err != nil {
			return err
		}
	}
	assertions(opts, col, calledTools, slow)
	// What the log lacks may hold anything: incomplete evidence is never a
	// pass, and it outranks every finding (result.Decide).
	c.Finish()
	if err := render(opts, res, reports); err != nil {
		return err
	}
	return cmdutil.Verdict(res.ExitCode)
}

func displayPath(opts *CheckOptions, path string) string {
	if opts.Factory.Getwd != nil {
		if wd, err := opts.Factory.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
				return filepath.ToSlash(rel)
			}
		}
	}
	return path
}

// tofu reports whether sessions seen for the first time get their tool
// list recorded as the baseline: the state directory's own logs (what
// this machine's proxies recorded) unless --no-tofu, a log handed over as
// a file or on stdin only with --tofu. mcpsnoop's check wrote a baseline
// for any log it was given, so checking someone else's log trusted it.
func (opts *CheckOptions) tofu() bool {
	return !opts.NoTofu && (opts.Tofu || len(opts.Logs) == 0)
}

// settingsNoTofu reads no-tofu from the settings file (.mcpward.toml, as
// the proxy finds it).
func settingsNoTofu(f *cmdutil.Factory) (bool, error) {
	cwd := ""
	if f.Getwd != nil {
		cwd, _ = f.Getwd()
	}
	file, err := settings.Load("", cwd, f.LookupEnv, mcpsnoopfiles.Settings)
	if err != nil {
		return false, err
	}
	return file.NoTofu != nil && *file.NoTofu, nil
}

// drift compares the session's complete tool list with its baseline. A
// missing baseline is recorded from this list when opts.tofu() (trust on
// first use, said in NotEvaluated), and is otherwise not a finding.
func drift(opts *CheckOptions, res *result.Result, col *verdict.Collector, dir, file string, ss *calls.Session) {
	defs, complete := ss.Tools()
	if !complete {
		return
	}
	label, server, endpoint := ss.Identity()
	id := baseline.Identity{Label: label, Server: server, Endpoint: endpoint}
	var raws [][]byte
	line := 0
	for _, d := range defs {
		raws = append(raws, d.Raw)
		line = d.Line
	}
	cur, err := baseline.FromTools(id, toRaw(raws))
	if err != nil {
		res.Evidence.Problems = append(res.Evidence.Problems, fmt.Sprintf("session %s: %v", ss.ID, err))
		return
	}
	var base *baseline.Baseline
	recorded := false
	if opts.tofu() {
		now := time.Now
		if opts.Factory.Now != nil {
			now = opts.Factory.Now
		}
		cur.RecordedAt = now().UTC().Format(time.RFC3339)
		cur.SetSource(ss.ID, ss.Start)
		base, recorded, err = baseline.TrustOnFirstUse(dir, cur)
	} else {
		base, err = baseline.Read(dir, id)
	}
	if err != nil {
		if !errors.Is(err, baseline.ErrNotFound) {
			res.Evidence.Problems = append(res.Evidence.Problems, fmt.Sprintf("session %s: tool baseline: %v", ss.ID, err))
			if opts.gate.SelectsDrift("") {
				col.SelectDrift()
			}
		}
		return
	}
	if recorded {
		res.NotEvaluated = append(res.NotEvaluated, result.NotEvaluated{What: "tool drift of session " + ss.ID + " (" + label + ")",
			Why: fmt.Sprintf("recorded first-seen tool baseline %s: %s, trusted, not verified", baseline.Path(dir, id), plural.Count(len(cur.Tools), "tool"))})
		return
	}
	if base.Predates(ss.ID, ss.Start) {
		// Accepting a newer session moved the baseline on: an older
		// session's tools are history, not a breaking change against it.
		res.NotEvaluated = append(res.NotEvaluated, result.NotEvaluated{What: "tool drift of session " + ss.ID + " (" + label + ")",
			Why: "it predates the baseline: " + base.PredatesNote(ss.ID, ss.Start)})
		return
	}
	if len(base.Unverified) > 0 {
		res.NotEvaluated = append(res.NotEvaluated, result.NotEvaluated{What: strings.Join(base.Unverified, ", ") + " of session " + ss.ID + "'s tools",
			Why: "the baseline (" + base.Identity.Label + ", converted from mcpsnoop version 1) did not record them"})
	}
	for _, f := range baseline.Compare(base, cur) {
		f.Subject = "session " + ss.ID + " " + f.Subject
		res.Findings = append(res.Findings, result.Finding{Finding: f, Location: &result.Location{File: file, Line: line}})
		if opts.gate.SelectsDrift(f.RuleID) {
			col.SelectDrift()
		}
	}
}

// assertions adds the --max-duration, --expect-tool and --forbid-tool
// verdicts; a failed assertion always fails the check (exit 1).
func assertions(opts *CheckOptions, col *verdict.Collector, called map[string]bool, slow []string) {
	add := func(id, subject, msg string) {
		col.Add(result.RuleFinding{RuleID: id, Level: rules.SHOULD, Class: rules.Risky,
			Subject: subject, Message: msg}, true)
	}
	if len(slow) > 0 {
		add("assertion.max_duration", "--max-duration "+opts.MaxDuration.String(),
			fmt.Sprintf("%s took longer than %v; first: %s", plural.Count(len(slow), "tool call"), opts.MaxDuration, slow[0]))
	}
	for _, t := range opts.ExpectTools {
		if !called[t] {
			add("assertion.expect_tool", "--expect-tool "+t, fmt.Sprintf("no tools/call named %q", t))
		}
	}
	for _, t := range opts.ForbidTools {
		if called[t] {
			add("assertion.forbid_tool", "--forbid-tool "+t, fmt.Sprintf("a tools/call named %q", t))
		}
	}
}

func toRaw(b [][]byte) []json.RawMessage {
	out := make([]json.RawMessage, len(b))
	for i, x := range b {
		out[i] = x
	}
	return out
}

func render(opts *CheckOptions, res *result.Result, reports []sessionReport) error {
	write, _ := report.Lookup(opts.Format)
	var buf bytes.Buffer
	if err := write(&buf, res); err != nil {
		return fmt.Errorf("render %s: %w", opts.Format, err)
	}
	if opts.Format == "text" {
		writeTables(&buf, reports, opts.IO.IsStdoutTTY(), opts.IO.TerminalWidth(), opts.Slow)
	}
	var out io.Writer = opts.IO.Out
	if opts.Format == "text" {
		// Frames and stderr lines quoted in the findings are the
		// server's: no escape sequence of theirs reaches the terminal.
		out = termsafe.NewWriter(out)
	}
	if _, err := io.Copy(out, &buf); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// gateWords are the words --fail-on takes, for shell completion: the
// signals, none, the levels, the classes and every rule id.
func gateWords() []string {
	var w []string
	for _, s := range traffic.Signals() {
		w = append(w, string(s))
	}
	w = append(w, "none", "must", "should", "may", rules.Violation, rules.Risky, rules.Info)
	return append(w, verdict.RuleIDs()...)
}
