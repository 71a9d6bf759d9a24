package compat

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/transport"
)

// noTool is a tool name no server lists: the Mcp-Name assertions send
// tools/call for it, so that no real tool runs whatever the server does.
const noTool = "mcpward-no-such-tool"

// unknownVersion is the protocol version of the unsupported-version
// probes: well formed and later than every known revision, so that a
// dual-era server cannot take it for an old client's and answer down its
// legacy path (an early date made the go-sdk do exactly that).
const unknownVersion = "2099-01-01"

const naStdio = "n/a (stdio): requires the Streamable HTTP framing; this transport has no HTTP layer"

// httpRules are the T-group rules checked over HTTP, in report order.
var httpRules = []string{
	"transport.get_not_405", "transport.delete_not_405", "transport.session_id_echoed", "transport.last_event_id_honored",
	"transport.missing_protocol_version_accepted", "transport.header_body_mismatch_accepted", "transport.mcp_name_missing_accepted",
	"transport.mcp_name_mismatch_accepted", "transport.mcp_name_base64_not_decoded", "transport.unknown_method_not_404_32601",
	"transport.unsupported_version_not_32022", "transport.origin_invalid_not_403", "transport.notification_not_202",
	"transport.sse_no_accel_buffering", "transport.sse_no_keepalive", ruleSessionAfterDelete,
}

// legacyHTTPRules bind legacy Streamable HTTP servers too.
var legacyHTTPRules = []string{"transport.unsupported_version_not_32022", "transport.origin_invalid_not_403", "transport.notification_not_202", ruleSessionAfterDelete}

const (
	ruleUnsupportedVersion = "transport.unsupported_version_not_32022"
	ruleSessionAfterDelete = "transport.session_not_404_after_delete"
	ruleMetaPartial        = "transport.meta_partial_not_32602"
)

func (e *engine) version() string {
	if v := e.s.Client.ProtocolVersion(); v != "" {
		return v
	}
	return rules.ModernVersion
}

func short(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, 2*time.Second)
}

func (e *engine) httpAssertions(ctx context.Context) {
	if !e.modern {
		reason := "n/a (" + e.rep.Era + " server): a 2026-07-28 rule; legacy Streamable HTTP allows it"
		for _, id := range httpRules {
			if !slices.Contains(legacyHTTPRules, id) {
				e.assert(id, NA, reason, nil)
			}
		}
		if e.rep.Era == rules.EraLegacy {
			e.legacyHTTP(ctx)
		}
		e.commonAssertions(ctx)
		return
	}
	v := e.version()
	get := func(id string, q rawReq, pass func(rawResp) bool, want string) {
		c, cancel := short(ctx)
		defer cancel()
		r := e.send(c, q)
		e.judge(id, r, pass(r), want)
	}
	// The 405 for GET and DELETE and ignoring Last-Event-ID are how a
	// server that supports only 2026-07-28 turns legacy clients away
	// (DIGEST §3.2, backward-compatibility handling by a modern-only
	// server); a dual-era server serves those clients their revision's
	// GET stream, DELETE and resumption (§3.3).
	dual := e.rep.Era == rules.EraDual
	const naDual = "n/a (dual-era server): binds a server that supports only 2026-07-28; a server that also serves legacy clients implements their GET stream, DELETE and resumption (legacy Streamable HTTP)"
	if dual {
		e.assert("transport.get_not_405", NA, naDual, nil)
		e.assert("transport.delete_not_405", NA, naDual, nil)
	} else {
		get("transport.get_not_405", rawReq{httpMethod: "GET", noDefaults: true, header: map[string][]string{"Accept": {"text/event-stream"}}},
			func(r rawResp) bool { return r.status() == 405 }, "405")
		get("transport.delete_not_405", rawReq{httpMethod: "DELETE", noDefaults: true}, func(r rawResp) bool { return r.status() == 405 }, "405")
	}

	r := e.send(ctx, rawReq{method: mcp.MethodToolsList, meta: true, version: v, header: map[string][]string{"Mcp-Session-Id": {"mcpward-canary"}}})
	sid := ""
	if r.reply != nil && r.reply.HTTP != nil {
		sid = r.reply.HTTP.Header.Get("Mcp-Session-Id")
	}
	e.judgeDetail("transport.session_id_echoed", r, sid == "", fmt.Sprintf("a request carrying Mcp-Session-Id: mcpward-canary got Mcp-Session-Id: %q back", sid), "no Mcp-Session-Id in the response")

	if dual {
		e.assert("transport.last_event_id_honored", NA, naDual, nil)
	} else {
		get("transport.last_event_id_honored", rawReq{httpMethod: "GET", noDefaults: true, header: map[string][]string{"Accept": {"text/event-stream"}, "Last-Event-ID": {"42"}}},
			func(r rawResp) bool { return !(r.status() == 200 && isSSE(r)) }, "no 200 event stream")
	}

	r = e.send(ctx, rawReq{method: mcp.MethodToolsList, meta: true, version: v, header: map[string][]string{"Mcp-Protocol-Version": nil}})
	servesOld := slices.ContainsFunc(e.rep.SupportedVersions, func(s string) bool { return s <= "2025-03-26" }) || e.rep.Era == rules.EraDual
	switch {
	case r.ok() && servesOld:
		e.assert("transport.missing_protocol_version_accepted", Pass, "accepted without the header; allowed because the server also serves pre-2025-06-18 clients", r.ex)
	default:
		e.judge("transport.missing_protocol_version_accepted", r, r.status() == 400 && r.code() != 0, "400 with a JSON-RPC error (-32020)")
	}

	r = e.send(ctx, rawReq{method: mcp.MethodDiscover, meta: true, version: rules.LegacyVersion, header: map[string][]string{"Mcp-Protocol-Version": {v}}})
	e.judge("transport.header_body_mismatch_accepted", r, r.status() == 400 && (r.code() == mcp.CodeHeaderMismatch || r.code() == mcp.CodeUnsupportedProtocolVersion), "400 with -32020 (or -32022)")

	if e.opts.ReadOnly {
		for _, id := range []string{"transport.mcp_name_missing_accepted", "transport.mcp_name_mismatch_accepted", "transport.mcp_name_base64_not_decoded"} {
			e.assert(id, Skipped, "skipped: needs a tools/call, which this read-only run never sends", nil)
		}
	} else {
		nameCheck := func(id string, mcpName []string, wantMismatch bool) {
			r := e.send(ctx, rawReq{method: mcp.MethodToolsCall, meta: true, version: v, params: map[string]any{"name": noTool, "arguments": map[string]any{}},
				header: map[string][]string{"Mcp-Name": mcpName}})
			code := r.code()
			switch {
			case r.err != nil:
				e.assert(id, Skipped, "skipped: no answer: "+oneLine(r.err.Error()), r.ex)
			case wantMismatch && code == mcp.CodeInvalidParams:
				e.assert(id, Skipped, "inconclusive: the server rejected the unknown tool name before validating Mcp-Name", r.ex)
			case wantMismatch:
				e.judge(id, r, code == mcp.CodeHeaderMismatch && r.status() == 400, "400 with -32020")
			default:
				e.judge(id, r, code != mcp.CodeHeaderMismatch, "anything but -32020 (the decoded name matches)")
			}
		}
		nameCheck("transport.mcp_name_missing_accepted", nil, true)
		nameCheck("transport.mcp_name_mismatch_accepted", []string{"mcpward-other-name"}, true)
		nameCheck("transport.mcp_name_base64_not_decoded", []string{"=?base64?" + base64.StdEncoding.EncodeToString([]byte(noTool)) + "?="}, false)
	}

	r = e.send(ctx, rawReq{method: "mcpward/no_such_method", meta: true, version: v})
	e.judge("transport.unknown_method_not_404_32601", r, r.status() == 404 && r.code() == mcp.CodeMethodNotFound, "404 with -32601")

	e.unsupportedVersion(ctx, true, nil)
	e.origin(ctx, v, true)
	e.notification(ctx, v, true)
	e.sse(ctx, v)
	e.sessionAfterDelete(ctx)
	e.commonAssertions(ctx)
}

// legacyHTTP runs the rules that bind a legacy Streamable HTTP server.
func (e *engine) legacyHTTP(ctx context.Context) {
	v := e.version()
	e.unsupportedVersion(ctx, false, nil)
	e.origin(ctx, v, v >= "2025-11-25")
	e.notification(ctx, v, false)
	e.sessionAfterDelete(ctx)
}

// sessionAfterDelete ends a session of its own with DELETE and sends one
// more request with its id: a legacy server that ended a session MUST
// answer that id with 404 (DIGEST §3.3 Sessions; 2025-03-26 transports:
// "after which it MUST respond to requests containing that session ID with
// HTTP 404 Not Found"). The session under test is left alone.
func (e *engine) sessionAfterDelete(ctx context.Context) {
	id := ruleSessionAfterDelete
	if e.rep.Era == rules.EraModernOnly {
		e.assert(id, NA, "n/a (modern-only server): 2026-07-28 has no sessions", nil)
		return
	}
	fs, err := e.s.Fresh(ctx, func(o *client.Options) { o.Era = mcp.EraLegacy })
	if err != nil {
		e.assert(id, Skipped, "skipped: a fresh legacy session failed: "+oneLine(err.Error()), nil)
		return
	}
	defer fs.Close()
	v := fs.Client.ProtocolVersion()
	sc, _ := fs.Conn.(interface{ SessionID() string })
	sid := ""
	if sc != nil {
		sid = sc.SessionID()
	}
	switch {
	case v < "2025-03-26":
		e.assert(id, NA, "n/a: the server negotiated "+v+", which has no Streamable HTTP sessions", nil)
		return
	case sid == "":
		e.assert(id, NA, "n/a: initialize minted no Mcp-Session-Id (sessions are optional)", nil)
		return
	}
	hdr := func() map[string][]string {
		h := map[string][]string{"Mcp-Session-Id": {sid}}
		if v >= "2025-06-18" {
			h["Mcp-Protocol-Version"] = []string{v}
		}
		return h
	}
	del := e.send(ctx, rawReq{httpMethod: http.MethodDelete, noDefaults: true, header: hdr(), sess: fs})
	switch st := del.status(); {
	case del.err != nil && del.reply == nil:
		e.assert(id, Skipped, "skipped: DELETE got no answer: "+oneLine(del.err.Error()), del.ex)
		return
	case st == http.StatusMethodNotAllowed:
		e.assert(id, NA, "n/a: DELETE answered 405, which is allowed: the server does not let clients end sessions", del.ex)
		return
	case st < 200 || st > 299:
		e.assert(id, Skipped, fmt.Sprintf("inconclusive: DELETE answered HTTP %d, so the session may not have ended", st), del.ex)
		return
	}
	r := e.send(ctx, rawReq{method: mcp.MethodPing, noDefaults: true, header: hdr(), sess: fs})
	if r.ex != nil {
		r.ex.Note = strings.TrimSpace(fmt.Sprintf("DELETE with this Mcp-Session-Id answered HTTP %d (session ended); then this ping with the same id. %s", del.status(), r.ex.Note))
	}
	e.judge(id, r, r.status() == http.StatusNotFound, "404 (the session was ended)")
}

// unsupportedVersion sends a request at unknownVersion, on sess when set
// (a fresh stdio process) else on the session under test.
func (e *engine) unsupportedVersion(ctx context.Context, modern bool, sess *connect.Session) {
	id := ruleUnsupportedVersion
	if !modern && e.version() < "2025-06-18" {
		e.assert(id, NA, "n/a: MCP-Protocol-Version exists from 2025-06-18; the server speaks "+e.version(), nil)
		return
	}
	if modern {
		// §1.4: a server that does not implement the requested version
		// MUST answer -32022 (HTTP 400) with data.supported, on any
		// transport.
		r := e.send(ctx, rawReq{method: mcp.MethodToolsList, meta: true, version: unknownVersion, sess: sess})
		var d struct {
			Supported []string `json:"supported"`
		}
		if er := r.rpcError(); er != nil {
			_ = json.Unmarshal(er.Data, &d)
		}
		pass := r.code() == mcp.CodeUnsupportedProtocolVersion && len(d.Supported) > 0
		if e.kind == "http" {
			if pass && r.status() == 400 && e.rep.Era == rules.EraDual {
				if lr, v, ok := e.legacyUnsupportedVersion(ctx); ok && lr.status() != 400 {
					// A dual-era server's legacy sessions are bound by
					// their revision's rule too (2025-06-18 and later).
					e.judge(id, lr, false, "400 (on a legacy session at "+v+" an unsupported MCP-Protocol-Version is a bad request)")
					return
				}
			}
			e.judge(id, r, pass && r.status() == 400, "400 with -32022 and data.supported")
			return
		}
		e.judgeStream(id, r, pass, "-32022 with data.supported")
		return
	}
	r := e.send(ctx, rawReq{method: mcp.MethodToolsList, noDefaults: true, header: map[string][]string{"Mcp-Protocol-Version": {unknownVersion}}})
	e.judge(id, r, r.status() == 400, "400 (legacy: an unsupported MCP-Protocol-Version is a bad request)")
}

// legacyProbe sends a tools/list on a fresh legacy session of a dual-era
// server, with the headers hdr gives for the session's version; ok is false
// when no such session at min or later could be had, or nothing answered.
// A dual-era server's legacy sessions are bound by their revision's rules
// even when its modern requests pass.
func (e *engine) legacyProbe(ctx context.Context, min, why string, hdr func(v string) map[string][]string) (r rawResp, version string, ok bool) {
	fs, err := e.s.Fresh(ctx, func(o *client.Options) { o.Era = mcp.EraLegacy })
	if err != nil {
		return rawResp{}, "", false
	}
	defer fs.Close()
	v := fs.Client.ProtocolVersion()
	if v < min {
		return rawResp{}, v, false
	}
	r = e.send(ctx, rawReq{method: mcp.MethodToolsList, noDefaults: true, legacy: true, sess: fs, header: hdr(v)})
	if r.err != nil && r.reply == nil {
		return r, v, false
	}
	if r.ex != nil {
		r.ex.Note = strings.TrimSpace("on a fresh legacy session at " + v + " (" + why + "). " + r.ex.Note)
	}
	return r, v, true
}

// legacyUnsupportedVersion: a request at unknownVersion on a fresh legacy
// session (MCP-Protocol-Version exists from 2025-06-18).
func (e *engine) legacyUnsupportedVersion(ctx context.Context) (rawResp, string, bool) {
	return e.legacyProbe(ctx, "2025-06-18", "the modern request was answered 400 -32022", func(string) map[string][]string {
		return map[string][]string{"Mcp-Protocol-Version": {unknownVersion}}
	})
}

func (e *engine) origin(ctx context.Context, v string, applies bool) {
	id := "transport.origin_invalid_not_403"
	if !applies {
		e.assert(id, NA, "n/a: the explicit 403 arrives in 2025-11-25; the server speaks "+v, nil)
		return
	}
	q := rawReq{method: mcp.MethodToolsList, meta: e.modern, version: v, noDefaults: !e.modern, header: map[string][]string{"Origin": {"http://mcpward-evil.example"}}}
	if !e.modern {
		q.header["Mcp-Protocol-Version"] = []string{v}
	}
	r := e.send(ctx, q)
	if r.status() == 403 && e.rep.Era == rules.EraDual {
		// The explicit 403 binds a legacy session from 2025-11-25 on.
		lr, lv, ok := e.legacyProbe(ctx, "2025-11-25", "the modern request was answered 403", func(lv string) map[string][]string {
			return map[string][]string{"Origin": {"http://mcpward-evil.example"}, "Mcp-Protocol-Version": {lv}}
		})
		if ok && lr.status() != 403 {
			e.judge(id, lr, false, "403 (on a legacy session at "+lv+")")
			return
		}
	}
	e.judge(id, r, r.status() == 403, "403")
}

func (e *engine) notification(ctx context.Context, v string, modern bool) {
	q := rawReq{method: mcp.NotificationInitialized, notify: true, meta: modern, version: v, noDefaults: !modern}
	if !modern {
		q.header = map[string][]string{"Mcp-Protocol-Version": {v}}
	}
	r := e.send(ctx, q)
	st := r.status()
	pass := (st == 202 && (r.reply == nil || r.reply.HTTP == nil || len(bytes.TrimSpace(r.reply.HTTP.Body)) == 0)) || (st >= 400 && st < 500)
	e.judge("transport.notification_not_202", r, pass, "202 with no body (accepted) or a 4xx (rejected)")
}

// sse opens a subscriptions/listen stream for two seconds and looks at its
// headers and its first bytes.
func (e *engine) sse(ctx context.Context, v string) {
	c, cancel := short(ctx)
	defer cancel()
	r := e.send(c, rawReq{method: mcp.MethodSubscriptionsListen, meta: true, version: v,
		params: map[string]any{"notifications": map[string]any{"toolsListChanged": true}},
		header: map[string][]string{"Accept": {"application/json, text/event-stream"}}})
	if !(r.status() == 200 && isSSE(r)) {
		why := fmt.Sprintf("skipped: subscriptions/listen gave no event stream (HTTP %d", r.status())
		if c := r.code(); c != 0 {
			why += fmt.Sprintf(", error %d", c)
		}
		why += ")"
		e.assert("transport.sse_no_accel_buffering", Skipped, why, r.ex)
		e.assert("transport.sse_no_keepalive", Skipped, why, r.ex)
		return
	}
	xa := r.reply.HTTP.Header.Get("X-Accel-Buffering")
	e.judgeDetail("transport.sse_no_accel_buffering", r, strings.EqualFold(xa, "no"), fmt.Sprintf("X-Accel-Buffering is %q", xa), "X-Accel-Buffering: no")
	keep := false
	for _, line := range bytes.Split(r.reply.HTTP.Body, []byte("\n")) {
		if bytes.HasPrefix(line, []byte(":")) {
			keep = true
		}
	}
	e.judgeDetail("transport.sse_no_keepalive", r, keep, "no comment line in the first two seconds of the stream", "a ':' comment line within two seconds")
}

func isSSE(r rawResp) bool {
	return r.reply != nil && r.reply.HTTP != nil && strings.HasPrefix(strings.ToLower(r.reply.HTTP.ContentType), "text/event-stream")
}

// judge records pass or fail with a detail naming what was observed.
func (e *engine) judge(id string, r rawResp, pass bool, want string) {
	e.judgeDetail(id, r, pass, "got "+observed(r)+", want "+want, "got "+observed(r))
}

func (e *engine) judgeDetail(id string, r rawResp, pass bool, failDetail, passDetail string) {
	if r.err != nil && r.reply == nil {
		e.assert(id, Skipped, "skipped: no answer: "+oneLine(r.err.Error()), r.ex)
		return
	}
	if pass {
		e.assert(id, Pass, passDetail, r.ex)
		return
	}
	e.assert(id, Fail, failDetail, r.ex)
}

func observed(r rawResp) string {
	s := fmt.Sprintf("HTTP %d", r.status())
	if er := r.rpcError(); er != nil {
		s += fmt.Sprintf(" with error %d", er.Code)
	} else if r.ok() {
		s += " with a result"
	}
	return s
}

// commonAssertions are checked on every transport.
func (e *engine) commonAssertions(ctx context.Context) {
	id := "transport.discover_not_implemented"
	switch {
	case e.modern:
		e.assert(id, Pass, "server/discover answered with a result", nil)
	case slices.ContainsFunc(e.claimedVersions(), func(v string) bool { return mcp.Revision(v).Era() == mcp.EraModern }):
		e.assert(id, Fail, "the server names a 2026-07-28 version but does not answer server/discover", e.discoverEvidence())
	default:
		e.assert(id, NA, "n/a ("+e.rep.Era+" server): server/discover is a 2026-07-28 method", e.discoverEvidence())
	}
	if e.modern && e.kind != "http" && e.rep.Era == rules.EraDual {
		// On stdio a request without _meta is what a legacy client sends;
		// a dual-era server may serve it the legacy way (DIGEST §1.4).
		e.assert("transport.meta_missing_not_32602", NA, "n/a (dual-era server on stdio): a request without _meta is a legacy request", nil)
		e.removedMethods(ctx)
	} else if e.modern {
		r := e.send(ctx, rawReq{method: mcp.MethodToolsList, version: e.version()})
		e.judgeStream("transport.meta_missing_not_32602", r, r.code() == mcp.CodeInvalidParams && (r.status() == 0 || r.status() == 400), "-32602 (HTTP 400)")
		if e.kind == "http" {
			e.metaPartial(ctx, nil) // stdio: see stdioAssertions
		}
		e.removedMethods(ctx)
	} else {
		e.assert("transport.meta_missing_not_32602", NA, "n/a ("+e.rep.Era+" server): legacy requests carry no _meta envelope", nil)
		e.assert(ruleMetaPartial, NA, "n/a ("+e.rep.Era+" server): legacy requests carry no _meta envelope", nil)
	}
	e.observationAssertions()
}

// metaPartial sends a tools/list whose _meta names the protocol version
// but lacks the required clientCapabilities. The version key makes it a
// modern request even on a dual-era server, so META-REQ-FIELDS binds: a
// missing required key MUST be rejected with -32602 (HTTP 400).
func (e *engine) metaPartial(ctx context.Context, sess *connect.Session) {
	r := e.send(ctx, rawReq{method: mcp.MethodToolsList, meta: true, version: e.version(), metaKeys: []string{mcp.MetaProtocolVersion}, sess: sess})
	e.judgeStream(ruleMetaPartial, r, r.code() == mcp.CodeInvalidParams && (r.status() == 0 || r.status() == 400), "-32602 (HTTP 400)")
}

func (e *engine) judgeStream(id string, r rawResp, pass bool, want string) {
	if e.kind != "http" {
		got := "no answer"
		if er := r.rpcError(); er != nil {
			got = fmt.Sprintf("error %d", er.Code)
		} else if r.reply != nil && r.reply.Response != nil {
			got = "a result"
		}
		if r.err != nil && r.reply == nil {
			e.assert(id, Skipped, "skipped: "+oneLine(r.err.Error()), r.ex)
			return
		}
		if pass {
			e.assert(id, Pass, "got "+got, r.ex)
		} else {
			e.assert(id, Fail, "got "+got+", want "+want, r.ex)
		}
		return
	}
	e.judge(id, r, pass, want)
}

// removedMethods asks a modern-only server for methods 2026-07-28 removed.
func (e *engine) removedMethods(ctx context.Context) {
	if e.rep.Era != rules.EraModernOnly {
		return
	}
	for _, m := range []string{mcp.MethodPing, mcp.MethodLoggingSetLevel} {
		params := map[string]any{}
		if m == mcp.MethodLoggingSetLevel {
			params["level"] = "info"
		}
		r := e.send(ctx, rawReq{method: m, meta: true, version: e.version(), params: params})
		if r.reply != nil && r.reply.Response != nil && r.reply.Response.Error == nil {
			e.finding("era.removed_method_served", "method."+m, "", m+" answered with a result by a modern-only server", r.ex)
		}
	}
}

// observationAssertions summarise findings gathered while listing as
// assertions (snapgauge's observation rows); they add no findings.
func (e *engine) observationAssertions() {
	for _, id := range []string{"cache.hints_missing", "cache.scope_inconsistent_across_pages", "message.result_type_missing", "error.reserved_code"} {
		r := rules.MustLookup(id)
		a := Assertion{ID: id, Level: r.Level, Cite: r.Cite(), Verdict: Pass, Detail: "none seen"}
		if !e.modern && id != "error.reserved_code" {
			a.Verdict, a.Detail = NA, "n/a ("+e.rep.Era+" server): a 2026-07-28 rule"
		}
		var subjects []string
		for _, f := range e.rep.findings {
			if f.RuleID == id {
				subjects = append(subjects, f.Subject)
			}
		}
		if len(subjects) > 0 {
			a.Verdict, a.Detail = Fail, "seen on "+strings.Join(subjects, ", ")
		}
		e.rep.Assertions = append(e.rep.Assertions, a)
	}
}

// claimedVersions are versions the server names anywhere in the handshake.
func (e *engine) claimedVersions() []string {
	out := slices.Clone(e.rep.SupportedVersions)
	if hs := e.s.Handshake; hs != nil && hs.Discover != nil && hs.Discover.Msg != nil && hs.Discover.Msg.Error != nil {
		var d struct {
			Supported []string `json:"supported"`
		}
		_ = json.Unmarshal(hs.Discover.Msg.Error.Data, &d)
		out = append(out, d.Supported...)
	}
	return out
}

func (e *engine) discoverEvidence() *exchangeT {
	hs := e.s.Handshake
	if hs == nil || hs.Discover == nil {
		if hs != nil && hs.DiscoverFailure != nil {
			return &exchangeT{Note: "server/discover: " + oneLine(hs.DiscoverFailure.Error())}
		}
		return nil
	}
	return exchange([]byte(`{"method":"server/discover"}`), hs.Discover, "request body not kept; method shown")
}

// stdioAssertions: the HTTP-only rules are n/a with the reason; the stdio
// rules are checked instead.
func (e *engine) stdioAssertions(ctx context.Context) {
	for _, id := range httpRules {
		if id == ruleUnsupportedVersion && e.kind == "stdio" {
			continue // judged on stdio too, below
		}
		e.assert(id, NA, naStdio, nil)
	}
	for _, id := range []string{"xhdr.param_mismatch_accepted", "xhdr.param_missing_accepted", "xhdr.absent_param_rejected"} {
		e.assert(id, NA, "n/a (stdio): Mcp-Param-* headers exist only on HTTP", nil)
	}
	if e.kind == "sse" {
		e.commonAssertions(ctx)
		return
	}
	// A notification must never be answered. A stray response reaches the
	// connection's diagnostics (the router hands a reply no request awaits
	// there, whatever its id, null included), so they are read before and
	// after; a tools/list after the notification gives the server time to
	// have answered it, since stdio keeps order.
	n, _ := jsonrpc.EncodeNotification(mcp.NotificationCancelled, map[string]any{"requestId": 424242, "reason": "mcpward compat probe"})
	diags, _ := e.s.Client.Conn().(interface{ Diagnostics() []transport.Diagnostic })
	seen := 0
	if diags != nil {
		seen = len(diags.Diagnostics())
	}
	_, err := e.s.Client.Send(ctx, &transport.Call{Frame: n})
	if err == nil {
		resp, err := e.s.Client.Request(ctx, mcp.MethodToolsList, map[string]any{}, nil)
		answered := false
		var stray []byte
		if err == nil && resp.Reply != nil {
			for _, m := range resp.Reply.Related {
				if m.IsResponse() && !m.ID.Equal(resp.Msg.ID) {
					answered, stray = true, m.Raw
				}
			}
		}
		if diags != nil {
			if ds := diags.Diagnostics(); len(ds) > seen {
				for _, d := range ds[seen:] {
					if strings.HasPrefix(d.Text, "reply for id ") && strings.HasSuffix(d.Text, "that no request is waiting for") {
						answered, stray = true, d.Raw
					}
				}
			}
		}
		ex := &exchangeT{Request: compactJSON(n), Response: compactJSON(stray), Note: "a tools/list followed the notification; Response is the stray reply, if any"}
		if answered {
			e.assert("stdio.notification_answered", Fail, "the server answered notifications/cancelled with a response", ex)
		} else {
			e.assert("stdio.notification_answered", Pass, "no response to the notification", ex)
		}
	}
	e.stdoutClean(diags)
	e.malformed(ctx)
	if e.modern {
		// On a process of their own: earlier probes on the session under
		// test (a request without _meta) may have switched a dual-era
		// server to legacy semantics for that process, and then its answer
		// would be mcpward's doing, not the server's.
		fs, err := e.s.Fresh(ctx, nil)
		if err != nil {
			why := "skipped: fresh connection failed: " + oneLine(err.Error())
			e.assert(ruleUnsupportedVersion, Skipped, why, nil)
			e.assert(ruleMetaPartial, Skipped, why, nil)
		} else {
			e.unsupportedVersion(ctx, true, fs)
			e.metaPartial(ctx, fs)
			fs.Close()
		}
	} else {
		e.assert(ruleUnsupportedVersion, NA, "n/a ("+e.rep.Era+" server on stdio): a legacy server negotiates the version in initialize, answering an unknown one with a version it supports", nil)
	}
	e.commonAssertions(ctx)
}

// stdoutClean judges STDIO-STDOUT-CLEAN (a MUST in every revision) on
// what the session under test's server wrote to stdout from its start: a
// line that is not a JSON-RPC message (a banner, a log line, pretty-printed
// JSON) is one the transport's diagnostics kept. The fresh processes that
// other probes start are not looked at: mcpward sends them broken input on
// purpose.
func (e *engine) stdoutClean(diags interface{ Diagnostics() []transport.Diagnostic }) {
	id := "stdio.stdout_not_clean"
	if diags == nil {
		e.assert(id, Skipped, "skipped: the connection keeps no diagnostics", nil)
		return
	}
	var bad []transport.Diagnostic
	for _, d := range diags.Diagnostics() {
		if strings.HasPrefix(d.Text, "invalid frame:") {
			bad = append(bad, d)
		}
	}
	if len(bad) == 0 {
		e.assert(id, Pass, "every line on stdout was a JSON-RPC message", nil)
		return
	}
	ex := &exchangeT{Response: compactJSON(truncate(bad[0].Raw, 512)), Note: "Response is the first line on stdout that is not a JSON-RPC message: " + oneLine(bad[0].Text)}
	e.assert(id, Fail, fmt.Sprintf("%s on stdout %s not JSON-RPC messages; the first: %s", plural.Count(len(bad), "line"), plural.Of(len(bad), "is", "are"), oneLine(string(truncate(bad[0].Raw, 120)))), ex)
}

// malformed sends a broken line on a fresh process: silence and a -32700
// error are both fine; exiting is reported (SHOULD).
func (e *engine) malformed(ctx context.Context) {
	fs, err := e.s.Fresh(ctx, nil)
	if err != nil {
		e.assert("stdio.malformed_input", Skipped, "skipped: fresh connection failed: "+oneLine(err.Error()), nil)
		return
	}
	defer fs.Close()
	bad := []byte(`{"jsonrpc":"2.0","id":77,"method":`)
	ex := &exchangeT{Request: compactJSON(bad)}
	if _, err := fs.Client.Send(ctx, &transport.Call{Frame: bad}); err != nil {
		ex.Note = "write failed: " + oneLine(err.Error())
		e.assert("stdio.malformed_input", Fail, "the server stopped reading after a malformed line", ex)
		return
	}
	// A server that stopped reading is recognised by silence (the go-sdk
	// server logs the parse failure and reads no more): wait as long as the
	// era probe waits for silence (5s by default, more when the request
	// timeout was raised, at most 10s), not a whole request timeout, and
	// not so short that a loaded machine passes for a hung server.
	sctx, cancel := context.WithTimeout(ctx, min(fs.Client.Options().DiscoverTimeout, 10*time.Second))
	defer cancel()
	resp, err := fs.Client.Request(sctx, mcp.MethodToolsList, map[string]any{}, nil)
	if err != nil {
		ex.Note = "the next request failed: " + oneLine(err.Error())
		e.assert("stdio.malformed_input", Fail, "the server did not answer after a malformed line (exited or hung)", ex)
		return
	}
	what := "silence"
	for _, m := range resp.Reply.Related {
		if m.IsResponse() {
			ex.Response = compactJSON(m.Raw)
			what = "a reply"
			if m.Error != nil {
				what = fmt.Sprintf("error %d", m.Error.Code)
			}
		}
	}
	ex.Note = "then tools/list was answered normally"
	e.assert("stdio.malformed_input", Pass, "answered the malformed line with "+what+" and kept serving", ex)
}
