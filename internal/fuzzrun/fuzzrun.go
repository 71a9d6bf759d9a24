// Package fuzzrun runs the cases of internal/fuzz against a real server:
// each case on a fresh process (stdio, reaped by its process group) or a
// fresh connection (HTTP), after the era's handshake; it sends the frames
// as they are, then one well-formed request to see whether the server
// survived, and hands what it saw to fuzz.Judge. Hangs and zombies are
// confirmed by a retry with a longer timeout before they are reported,
// and every finding's frames are minimised while it still reproduces.
package fuzzrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fuzz"
	"github.com/mcpward/mcpward/internal/heuristic"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/transport"
)

// Options configure a fuzz run.
type Options struct {
	Spec *connect.Spec
	Env  connect.Env
	// Era forces "modern" or "legacy"; "" detects it.
	Era  mcp.Era
	Seed uint64
	// Cases is the number of cases (0: every fixed case and 32 random).
	Cases int
	// Duration bounds the run (0: none); cases not run are counted.
	Duration time.Duration
	// CaseTimeout is how long one frame waits for its answer; 0 derives it
	// from the median answer time (10x, at least 1s, at most the
	// request timeout). The confirming retry waits 4x as long, at least 3s.
	CaseTimeout time.Duration
	// AllowTools are tools called although the safety rule excludes them.
	AllowTools []string
	// MinimiseBudget bounds the reruns spent minimising one finding
	// (default 16; negative: none).
	MinimiseBudget int
	// PerRule is how many findings of one rule are kept (default 3).
	PerRule int
	// Progress, when set, is told what runs.
	Progress func(string)
}

// A ToolDecision says whether the plan calls a tool, and why.
type ToolDecision struct {
	Name string
	Call bool
	// Allowed: called only because --allow-tool named it.
	Allowed bool
	Why     string
}

// A Plan is what a run will do, printed before it runs.
type Plan struct {
	Target fuzz.Target
	// Server is the server's name@version.
	Server string
	Tools  []ToolDecision
	Cases  []fuzz.Case
	// Median is the median answer time of well-formed requests; Live is
	// the method used to see whether the server is alive.
	Median       time.Duration
	Live         string
	CaseTimeout  time.Duration
	RetryTimeout time.Duration
	Seed         uint64
	// Started is when Prepare began: a finding's Elapsed counts from it.
	Started time.Time
}

// A Found is one confirmed finding with the case that triggers it.
type Found struct {
	fuzz.Finding
	// Case is the case as minimised (the frames that still trigger it).
	Case fuzz.Case
	// Original is the case as generated.
	Original fuzz.Case
	// Minimised is true when Case is smaller than Original.
	Minimised bool
	// Same counts other cases that found the same rule and are not kept.
	Same int
	// Elapsed is the time from the start of the run (Plan.Started) to the
	// moment the finding was seen and, for a hang or a zombie, confirmed:
	// before it was minimised.
	Elapsed time.Duration
}

// A Report is the outcome of a run.
type Report struct {
	Plan  *Plan
	Found []Found
	// Ran is the number of cases run; NotRun those left when --duration
	// ran out or the run stopped, and Stopped says why.
	Ran, NotRun int
	Stopped     string
	// Problems are cases that could not be run (the server did not start
	// afresh), one line each.
	Problems []string
}

const liveID = "mcpward-fuzz-alive"

// Prepare connects once, detects the era, lists the tools and decides
// which may be called, measures the median answer time and generates the
// cases. The plan is printed before Run.
func Prepare(ctx context.Context, o *Options) (*Plan, error) {
	started := time.Now()
	sess, err := connect.Connect(ctx, o.Spec, o.Env, &client.Options{Era: o.Era, RequestTimeout: o.Spec.Timeout})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	p := &Plan{Seed: o.Seed, Started: started}
	p.Target.Era, p.Target.Version = string(sess.Client.Era()), sess.Client.ProtocolVersion()
	p.Target.Transport = "stdio"
	if sess.Conn.Kind() == "http" || sess.Conn.Kind() == "sse" {
		p.Target.Transport = "http"
	}
	p.Server = serverName(sess.Handshake)

	// The median answer time of well-formed requests: ping, or tools/list
	// when the server does not answer ping.
	p.Live = "ping"
	var times []time.Duration
	for i := 0; i < 5; i++ {
		start := time.Now()
		_, err := sess.Client.Request(ctx, p.Live, nil, nil)
		if err != nil && i == 0 && p.Live == "ping" {
			p.Live = mcp.MethodToolsList
			i--
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("the server does not answer %s, so nothing tells whether it survives a case: %w", p.Live, err)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	p.Median = times[len(times)/2]
	p.CaseTimeout = o.CaseTimeout
	if p.CaseTimeout <= 0 {
		p.CaseTimeout = min(max(10*p.Median, time.Second), o.Spec.Timeout)
	}
	// The confirming retry waits 4x as long, and never less than 3s: a
	// slow machine must not turn a server that answers late into a hang.
	p.RetryTimeout = max(4*p.CaseTimeout, 3*time.Second)

	lr := sess.Client.List(ctx, mcp.MethodToolsList)
	if lr.Fatal != nil {
		return nil, fmt.Errorf("tools/list: %w", lr.Fatal)
	}
	for _, page := range lr.Pages {
		var res struct {
			Tools []mcp.Tool `json:"tools"`
		}
		if json.Unmarshal(page, &res) != nil {
			continue
		}
		for _, t := range res.Tools {
			d := Decide(t, o.AllowTools)
			p.Tools = append(p.Tools, d)
			if d.Call {
				p.Target.Tools = append(p.Target.Tools, fuzz.Tool{Name: t.Name, InputSchema: t.InputSchema})
			}
		}
	}
	p.Cases = fuzz.Generate(p.Target, o.Seed, o.Cases)
	return p, nil
}

// Decide applies the safety rule to one tool: tools/call goes only to a
// tool that both facts call read-only (readOnlyHint: true, and no write,
// delete, send or execute signal in its name or words) and whose
// openWorldHint is false (absent is true, the spec's default); a tool
// named in allow is called even so.
func Decide(t mcp.Tool, allow []string) ToolDecision {
	d := ToolDecision{Name: t.Name}
	desc := ""
	if t.Description != nil {
		desc = *t.Description
	}
	var schema any
	_ = json.Unmarshal(t.InputSchema, &schema)
	reads, action, verb, _ := heuristic.OnlyReads(t.Name, desc, t.Annotations, schema)
	closed := t.Annotations != nil && t.Annotations.OpenWorldHint != nil && !*t.Annotations.OpenWorldHint
	switch {
	case reads && closed:
		d.Call, d.Why = true, "read-only by both facts (readOnlyHint: true, no change in its words) and openWorldHint: false"
	case !reads && action != heuristic.ActionNone:
		d.Why = fmt.Sprintf("its words read as %s (%q, heuristic)", action.Reads(), verb)
	case !reads:
		d.Why = "the server does not declare readOnlyHint: true"
	default:
		d.Why = "open world (openWorldHint is not false): generated arguments could reach other systems"
	}
	if !d.Call && slices.Contains(allow, t.Name) {
		d.Call, d.Allowed = true, true
		d.Why = "named with --allow-tool, although " + d.Why
	}
	return d
}

func serverName(hs *client.Handshake) string {
	var res json.RawMessage
	switch {
	case hs == nil:
		return ""
	case hs.Initialize != nil && hs.Initialize.Msg != nil:
		res = hs.Initialize.Msg.Result
	case hs.Discover != nil && hs.Discover.Msg != nil:
		res = hs.Discover.Msg.Result
	}
	var r struct {
		ServerInfo *mcp.Implementation        `json:"serverInfo"`
		Meta       map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(res, &r) != nil {
		return ""
	}
	if r.ServerInfo == nil {
		var si mcp.Implementation
		if json.Unmarshal(r.Meta[mcp.MetaServerInfo], &si) != nil || si.Name == "" {
			return ""
		}
		r.ServerInfo = &si
	}
	if r.ServerInfo.Version == "" {
		return r.ServerInfo.Name
	}
	return r.ServerInfo.Name + "@" + r.ServerInfo.Version
}

// Run runs the plan's cases in order and returns the confirmed,
// minimised findings.
func Run(ctx context.Context, o *Options, p *Plan) (*Report, error) {
	rep := &Report{Plan: p}
	var deadline time.Time
	if o.Duration > 0 {
		deadline = time.Now().Add(o.Duration)
	}
	perRule := o.PerRule
	if perRule <= 0 {
		perRule = 3
	}
	// A server behind a URL is not restarted per case: once it crashed or
	// went silent, the cases after it would only measure its absence, and
	// each would wait for a handshake that never ends.
	remote := o.Spec.URL != ""
	w := &warmRunner{o: o, p: p}
	defer w.close()
	kept := map[string]int{}
	for i, c := range p.Cases {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			rep.NotRun, rep.Stopped = len(p.Cases)-i, "--duration ran out before they started"
			break
		}
		if remote && (kept[fuzz.RuleCrash] > 0 || kept[fuzz.RuleZombie] > 0) {
			what := "crashed"
			if kept[fuzz.RuleCrash] == 0 {
				what = "answers nothing (a zombie)"
			}
			rep.NotRun, rep.Stopped = len(p.Cases)-i, "the server behind --url "+what+" and is not restarted"
			break
		}
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("case %d/%d %s", i+1, len(p.Cases), c.Name))
		}
		findings, err := w.next(ctx, c)
		rep.Ran++
		if err != nil {
			if ctx.Err() != nil {
				return rep, ctx.Err()
			}
			rep.Problems = append(rep.Problems, fmt.Sprintf("case %s: %v", c.Name, err))
			if remote {
				rep.NotRun, rep.Stopped = len(p.Cases)-i-1, "a fresh connection to the server behind --url failed, and it is not restarted"
				break
			}
			continue
		}
		for _, f := range findings {
			if kept[f.Rule] >= perRule {
				for j := range rep.Found {
					if rep.Found[j].Rule == f.Rule {
						rep.Found[j].Same++
						break
					}
				}
				continue
			}
			if needsRetry(f.Rule) && !confirm(ctx, o, p, c, f.Rule) {
				continue
			}
			kept[f.Rule]++
			fd := Found{Finding: f, Case: c, Original: c, Elapsed: time.Since(p.Started)}
			// A server behind a URL that crashed or went silent cannot
			// rerun the case: its finding keeps the frames as generated.
			if kept[f.Rule] == 1 && !(remote && (f.Rule == fuzz.RuleCrash || f.Rule == fuzz.RuleZombie)) {
				fd.Case = minimise(ctx, o, p, c, f.Rule)
				fd.Minimised = caseSize(fd.Case) < caseSize(c)
			}
			rep.Found = append(rep.Found, fd)
		}
	}
	sort.SliceStable(rep.Found, func(i, j int) bool { return rep.Found[i].Rule < rep.Found[j].Rule })
	return rep, nil
}

// warmRunner runs a plan's cases in order, each on a fresh process or
// connection unless the case is a well-formed request (it cannot break
// the framing; reusable) and the case before it left its session
// healthy: then it reuses that session and saves a process start and a
// handshake. Whatever a reused session finds is run again on a fresh one,
// and only what that run finds counts, so a finding never rests on what
// an earlier case left behind.
type warmRunner struct {
	o    *Options
	p    *Plan
	warm *connect.Session
}

func (w *warmRunner) close() {
	if w.warm != nil {
		w.warm.Close()
		w.warm = nil
	}
}

// next runs c and judges it.
func (w *warmRunner) next(ctx context.Context, c fuzz.Case) ([]fuzz.Finding, error) {
	sess := w.warm
	w.warm = nil
	if sess != nil && !reusable(c) {
		sess.Close()
		sess = nil
	}
	reused := sess != nil
	if !reused {
		var err error
		if sess, err = openSession(ctx, w.o, w.p, w.p.CaseTimeout); err != nil {
			return nil, err
		}
	}
	obs, err := runOn(ctx, w.o, w.p, sess, c, w.p.CaseTimeout)
	var found []fuzz.Finding
	if err == nil {
		found = fuzz.Judge(c, w.p.Target, obs)
	}
	if err == nil && obs.Live == fuzz.LiveAnswered && healthy(found) {
		w.warm = sess
	} else {
		sess.Close()
	}
	if reused && (err != nil || len(found) > 0) {
		return runJudge(ctx, w.o, w.p, c, w.p.CaseTimeout)
	}
	return found, err
}

// reusable reports whether c may run on a session an earlier case left
// healthy: each frame is a well-formed JSON request with a usable id and
// the headers mcpward sends, at most 64 KiB.
func reusable(c fuzz.Case) bool {
	for _, f := range c.Frames {
		if f.Answer != fuzz.AnswerID || f.Header != nil || len(f.Bytes) > 64<<10+512 || !json.Valid(f.Bytes) {
			return false
		}
	}
	return len(c.Frames) > 0
}

// healthy reports whether findings leave the server as a later case
// needs it: not ended, silent, stuck on a request or writing junk.
func healthy(found []fuzz.Finding) bool {
	for _, f := range found {
		switch f.Rule {
		case fuzz.RuleCrash, fuzz.RuleZombie, fuzz.RuleHang, fuzz.RuleStdoutNotClean, fuzz.RuleIDMismatch:
			return false
		}
	}
	return true
}

// confirm is the one retry behind a hang or a zombie: the case again on a
// fresh process or connection, waiting the retry timeout. A zombie behind
// a URL is not restarted, so there the retry is a fresh connection and the
// liveness request alone.
func confirm(ctx context.Context, o *Options, p *Plan, c fuzz.Case, rule string) bool {
	if o.Spec.URL != "" && rule == fuzz.RuleZombie {
		return stillSilent(ctx, o, p)
	}
	return reproduces(ctx, o, p, c, rule, p.RetryTimeout)
}

// stillSilent reports whether the server behind --url still answers
// nothing: a fresh connection (its handshake) and the liveness request
// get no answer within the retry timeout, while the endpoint still
// accepts connections (else it crashed).
func stillSilent(ctx context.Context, o *Options, p *Plan) bool {
	cctx, cancel := context.WithTimeout(ctx, 3*max(o.Spec.Timeout, p.RetryTimeout))
	defer cancel()
	sess, err := connect.Connect(cctx, o.Spec, o.Env, sessionOptions(o, p, p.RetryTimeout))
	if err == nil {
		defer sess.Close()
		id := jsonrpc.StringID(liveID)
		_, err = sess.Client.Request(cctx, p.Live, nil, &client.RequestOptions{ID: &id, Timeout: p.RetryTimeout})
	}
	return timedOut(err) && ctx.Err() == nil && listening(ctx, o.Spec.URL)
}

func timedOut(err error) bool {
	return errors.Is(err, transport.ErrTimeout) || errors.Is(err, context.DeadlineExceeded)
}

// listening reports whether the host of an http(s) URL accepts a TCP
// connection.
func listening(ctx context.Context, rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return false
	}
	host := u.Host
	if u.Port() == "" {
		port := "80"
		if u.Scheme == "https" {
			port = "443"
		}
		host = net.JoinHostPort(u.Hostname(), port)
	}
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(dctx, "tcp", host)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Replay runs one saved case with the plan's timeouts and returns what it
// found.
func Replay(ctx context.Context, o *Options, p *Plan, c fuzz.Case) ([]fuzz.Finding, error) {
	fs, err := runJudge(ctx, o, p, c, p.CaseTimeout)
	if err != nil {
		return nil, err
	}
	var out []fuzz.Finding
	for _, f := range fs {
		if needsRetry(f.Rule) && !confirm(ctx, o, p, c, f.Rule) {
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

func needsRetry(rule string) bool { return rule == fuzz.RuleHang || rule == fuzz.RuleZombie }

func caseSize(c fuzz.Case) int {
	n := 0
	for _, f := range c.Frames {
		n += len(f.Bytes) + 1
	}
	return n
}

// reproduces reports whether c still finds rule with the given timeout.
func reproduces(ctx context.Context, o *Options, p *Plan, c fuzz.Case, rule string, timeout time.Duration) bool {
	fs, err := runJudge(ctx, o, p, c, timeout)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(fs, func(f fuzz.Finding) bool { return f.Rule == rule })
}

func minimise(ctx context.Context, o *Options, p *Plan, c fuzz.Case, rule string) fuzz.Case {
	budget := o.MinimiseBudget
	if budget == 0 {
		budget = 16
	}
	if budget < 0 {
		return c
	}
	// The reruns wait as long as the case did when it found the rule; a
	// smaller hang or zombie is then confirmed once with the retry's
	// timeout, as the original was, or the original is kept.
	m := fuzz.MinimiseCase(c, rule, budget, func(t fuzz.Case) bool {
		return ctx.Err() == nil && reproduces(ctx, o, p, t, rule, p.CaseTimeout)
	})
	if needsRetry(rule) && caseSize(m) < caseSize(c) && !reproduces(ctx, o, p, m, rule, p.RetryTimeout) {
		return c
	}
	return m
}

// runJudge runs c on a fresh session and judges it.
func runJudge(ctx context.Context, o *Options, p *Plan, c fuzz.Case, timeout time.Duration) ([]fuzz.Finding, error) {
	obs, err := RunCase(ctx, o, p, c, timeout)
	if err != nil {
		return nil, err
	}
	return fuzz.Judge(c, p.Target, obs), nil
}

// sessionOptions are the client options of a case's fresh session: the
// era and revision of the plan, requests waiting timeout (at least the
// target's --timeout, for the handshake of a slow starter).
func sessionOptions(o *Options, p *Plan, timeout time.Duration) *client.Options {
	copts := &client.Options{Era: mcp.Era(p.Target.Era), RequestTimeout: max(o.Spec.Timeout, timeout)}
	if p.Target.Era == string(mcp.EraModern) {
		copts.Version = mcp.Revision(p.Target.Version)
	} else {
		copts.LegacyVersion = mcp.Revision(p.Target.Version)
	}
	return copts
}

// diagnoser is what the stream transports tell beyond replies: junk lines
// on stdout, replies nobody waited for.
type diagnoser interface {
	Diagnostics() []transport.Diagnostic
}

// RunCase sends c's frames on a fresh session (a new process or
// connection, after the era's handshake), then the liveness request, and
// returns what it saw. An error means the case could not be run at all.
func RunCase(ctx context.Context, o *Options, p *Plan, c fuzz.Case, timeout time.Duration) (fuzz.Observation, error) {
	sess, err := openSession(ctx, o, p, timeout)
	if err != nil {
		return fuzz.Observation{Wait: timeout.String()}, err
	}
	defer sess.Close()
	return runOn(ctx, o, p, sess, c, timeout)
}

// openSession starts a fresh process or opens a fresh connection and runs
// the era's handshake, bounded by its request timeout (twice: a legacy
// server may ask for another version once).
func openSession(ctx context.Context, o *Options, p *Plan, timeout time.Duration) (*connect.Session, error) {
	copts := sessionOptions(o, p, timeout)
	ctx, cancel := context.WithTimeout(ctx, 2*copts.RequestTimeout+time.Second)
	defer cancel()
	sess, err := connect.Connect(ctx, o.Spec, o.Env, copts)
	if err != nil {
		return nil, fmt.Errorf("fresh session: %w", err)
	}
	return sess, nil
}

// runOn sends c's frames on sess, then the liveness request, and returns
// what it saw. The case is bounded whatever the transport does: each
// frame and the liveness request wait at most timeout, and the whole case
// at most twice their sum and 5s more (writing a 1 MiB frame to a slow
// reader takes its time); running out of it counts as their timeout,
// only the caller's ctx ending is an error.
func runOn(parent context.Context, o *Options, p *Plan, sess *connect.Session, c fuzz.Case, timeout time.Duration) (fuzz.Observation, error) {
	obs := fuzz.Observation{Wait: timeout.String()}
	ctx, cancel := context.WithTimeout(parent, 2*time.Duration(len(c.Frames)+1)*timeout+5*time.Second)
	defer cancel()
	conn := sess.Conn
	var before int
	if d, ok := conn.(diagnoser); ok {
		before = len(d.Diagnostics())
	}
	ended := func(err error) bool {
		return errors.Is(err, transport.ErrExited) || errors.Is(err, transport.ErrClosed) || errors.Is(err, transport.ErrUnreachable)
	}
	for _, f := range c.Frames {
		call := &transport.Call{Frame: f.Bytes}
		if f.Answer == fuzz.AnswerID {
			if id, err := jsonrpc.ParseID([]byte(f.ID)); err == nil {
				call.ID = id
			}
		}
		if p.Target.Transport == "http" {
			m := jsonrpc.Decode(f.Bytes)
			call.Header = sess.Client.Headers(m.Method, m.Params)
			for k, v := range f.Header {
				if call.Header == nil {
					call.Header = map[string][]string{}
				}
				call.Header[k] = v
			}
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		reply, err := conn.Call(cctx, call)
		cancel()
		r := fuzz.Reply{Sent: err == nil || !ended(err)}
		switch {
		case err == nil:
			r.Answered = reply.Response != nil || reply.HTTP != nil
			if reply.Response != nil {
				r.Raw = reply.Response.Raw
			}
			if reply.HTTP != nil {
				r.Status = reply.HTTP.Status
				r.Raw = httpBody(reply.HTTP)
			}
		case errors.Is(err, transport.ErrTimeout) || errors.Is(err, context.DeadlineExceeded):
			r.TimedOut = f.Answer == fuzz.AnswerID
		case parent.Err() != nil:
			return obs, parent.Err()
		}
		obs.Replies = append(obs.Replies, r)
		if err != nil && ended(err) {
			obs.Live, obs.LiveDetail = fuzz.LiveEnded, endDetail(conn, err)
			break
		}
	}
	if obs.Live == fuzz.LiveUnchecked {
		id := jsonrpc.StringID(liveID)
		_, err := sess.Client.Request(ctx, p.Live, nil, &client.RequestOptions{ID: &id, Timeout: timeout})
		var he *client.HTTPError
		switch {
		case errors.As(err, &he) && gone(he.Info.Status):
			// What a gateway answers for a server that is gone.
			obs.Live, obs.LiveDetail = fuzz.LiveEnded, fmt.Sprintf("HTTP %d to %s", he.Info.Status, p.Live)
		case err == nil || errors.As(err, &he):
			obs.Live = fuzz.LiveAnswered
		case parent.Err() != nil:
			return obs, parent.Err()
		case errors.Is(err, transport.ErrTimeout) || errors.Is(err, context.DeadlineExceeded):
			obs.Live, obs.LiveDetail = fuzz.LiveSilent, fmt.Sprintf("no answer to %s within %s", p.Live, timeout)
			switch {
			case exitedNow(conn):
				obs.Live, obs.LiveDetail = fuzz.LiveEnded, endDetail(conn, err)
			case o.Spec.URL != "" && !listening(ctx, o.Spec.URL):
				obs.Live, obs.LiveDetail = fuzz.LiveEnded, "the endpoint no longer accepts connections"
			case o.Spec.URL != "":
				obs.LiveDetail += ", although the endpoint still accepts connections"
			}
		default:
			obs.Live, obs.LiveDetail = fuzz.LiveEnded, endDetail(conn, err)
		}
	}
	if d, ok := conn.(diagnoser); ok {
		for _, dg := range d.Diagnostics()[before:] {
			switch {
			case len(dg.Raw) == 0:
			case !json.Valid(dg.Raw) && len(dg.Raw) < 4<<10 && strings.HasPrefix(dg.Text, "invalid frame"):
				obs.Stdout = append(obs.Stdout, dg.Raw)
			case json.Valid(dg.Raw) && !strings.Contains(string(dg.Raw), liveID):
				obs.Unmatched = append(obs.Unmatched, dg.Raw)
			}
		}
	}
	return obs, nil
}

// gone reports whether an HTTP status without a JSON-RPC answer says the
// server behind the endpoint is gone (502, 503, 504).
func gone(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout
}

// httpBody is an HTTP answer's JSON: the body, or the data of its SSE
// events one per line.
func httpBody(h *transport.HTTPInfo) []byte {
	if len(h.Events) == 0 {
		return h.Body
	}
	var out []byte
	for i, e := range h.Events {
		if i > 0 {
			out = append(out, '\n')
		}
		out = append(out, e.Data...)
	}
	return out
}

func exitedNow(conn transport.Conn) bool {
	if sc, ok := conn.(interface {
		ExitState() (bool, int, error)
	}); ok {
		exited, _, _ := sc.ExitState()
		return exited
	}
	return false
}

// endDetail words how the server ended: its exit code or signal, or the
// transport's error.
func endDetail(conn transport.Conn, err error) string {
	var ee *transport.ExitError
	if errors.As(err, &ee) {
		if ee.Signal != "" {
			return "killed by " + ee.Signal
		}
		return fmt.Sprintf("exit code %d", ee.Code)
	}
	if sc, ok := conn.(interface {
		ExitState() (bool, int, error)
	}); ok {
		if exited, code, _ := sc.ExitState(); exited {
			return fmt.Sprintf("exit code %d", code)
		}
	}
	if err == nil {
		return "the connection ended"
	}
	msg := err.Error()
	if errors.Is(err, fault.ErrIncomplete) && len(msg) > 160 {
		msg = msg[:160] + "…"
	}
	return msg
}
