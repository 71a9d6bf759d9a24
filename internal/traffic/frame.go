package traffic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/session"
)

// frame runs the per-frame rules. It is the store's OnFrame.
// statusAccepted is HTTP 202; net/http is I/O the core does not import.
const statusAccepted = 202

func (c *Checker) frame(f *calls.Frame) {
	if c.opts.OnFrame != nil {
		defer c.opts.OnFrame(f)
	}
	rec := f.Record
	c.redactedFrame = rec.Redacted
	defer func() { c.redactedFrame = false }()
	st := c.state(rec.Session)
	if rec.Truncated && rec.Dir == session.ClientToServer {
		st.truncatedReqs = true
	}
	r := func(rule, msg string) { c.report(rec.Session, rule, rec.Seq, f.Line, msg, nil) }
	switch f.Kind {
	case calls.KindInvalid:
		if rec.Truncated {
			return // a cut copy is not evidence of a bad frame
		}
		why := "not JSON-RPC"
		if f.Msg.Err != nil {
			why = f.Msg.Err.Error()
		}
		// Each transport's own clause: the server's stdout and the
		// client's stdin on stdio, an accepted notification's empty body
		// on HTTP, and JSON-RPC itself for the rest.
		switch {
		case rec.Transport == session.Stdio && rec.Dir == session.ServerToClient:
			r("stdio.stdout_not_clean", "the server wrote to stdout: "+why)
		case rec.Transport == session.Stdio && rec.Dir == session.ClientToServer:
			r("stdio.stdin_not_clean", "the client wrote to stdin: "+why)
		case rec.Transport == session.HTTP && rec.Dir == session.ServerToClient && rec.Status == statusAccepted && !rec.SSE:
			r("transport.notification_not_202", fmt.Sprintf("HTTP 202 (accepted) with the body %s: an accepted notification gets no body", clipFrame(rec.Frame)))
		default:
			r("message.invalid_frame", string(rec.Dir)+" frame: "+why)
		}
		return
	case calls.KindTransport:
		if f.Has(calls.NoteError) {
			r("transport.http_error", fmt.Sprintf("HTTP %d without a JSON-RPC body%s", rec.Status, exchangeNote(rec)))
		}
		return
	case calls.KindStderr, calls.KindMeta:
		return
	}
	c.base(f, r)
	switch f.Kind {
	case calls.KindRequest:
		c.request(f, r)
	case calls.KindNotification:
		c.notification(f, r)
	case calls.KindResponse:
		c.response(f, r)
	}
	if obs := st.cache.Frame(f); obs != "" {
		r("cache.stale_refetch", obs)
	}
}

func exchangeNote(rec *session.Record) string {
	if rec.Error != "" {
		return " (" + rec.Error + ")"
	}
	return ""
}

// sessionModern tells whether the frame's session speaks the modern
// protocol: a request declared 2026-07-28 and no initialize negotiated a
// legacy revision in the frame's scope.
func sessionModern(f *calls.Frame) bool {
	if calls.Modern(f.Revision) {
		return true
	}
	return f.Session.ModernSeen() && f.Revision == ""
}

// base runs the JSON-RPC rules every message is judged by.
func (c *Checker) base(f *calls.Frame, r func(rule, msg string)) {
	m, rec := f.Msg, f.Record
	if f.Batch && f.BatchIndex == 0 {
		if rev := f.Session.Revision; rev != "" && rev != mcp.Rev20250326 && !batchAllowed(f) {
			r("message.batch_not_allowed", fmt.Sprintf("a JSON-RPC batch of %s frames on revision %s (batches exist only in 2025-03-26)", batchLen(rec.Frame), rev))
		}
	}
	if m.Err != nil {
		if errors.Is(m.Err, jsonrpc.ErrVersion) {
			r("message.jsonrpc_version", "jsonrpc member: "+firstLine(m.Err))
		}
		if errors.Is(m.Err, jsonrpc.ErrShape) && m.Result != nil && m.Error != nil {
			r("message.response_shape", "response has both result and error")
		}
	}
	switch f.Kind {
	case calls.KindRequest:
		if why := badRequestID(m); why != "" {
			r("message.id_invalid", fmt.Sprintf("%s request id %s", m.Method, why))
		}
	case calls.KindResponse:
		if m.ID.IsNull() && m.Result != nil {
			r("message.result_id_null", "a result response has id null")
		}
	}
}

func batchAllowed(f *calls.Frame) bool {
	// An element that declares 2025-03-26 itself settles it.
	return f.Revision == mcp.Rev20250326
}

func batchLen(frame []byte) string {
	var elems []json.RawMessage
	if json.Unmarshal(frame, &elems) != nil {
		return "?"
	}
	return strconv.Itoa(len(elems))
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// badRequestID says why a request id is not a string or an integer.
// Integer-valued spellings (1.0, 1e3) are accepted.
func badRequestID(m jsonrpc.Message) string {
	if m.Err != nil && errors.Is(m.Err, jsonrpc.ErrBadID) {
		return "is not a string or a number (" + firstLine(m.Err) + ")"
	}
	raw := m.ID.Raw()
	if len(raw) == 0 || raw[0] == '"' {
		return ""
	}
	if string(raw) == "null" {
		return "is null"
	}
	v, ok := new(big.Float).SetString(string(raw))
	if ok && !v.IsInt() {
		return string(raw) + " is not an integer"
	}
	return ""
}

// deprecatedMethod reports whether method is deprecated in 2026-07-28
// (roots, sampling, logging).
func deprecatedMethod(method string) bool {
	for _, p := range []string{"roots/", "notifications/roots/", "sampling/", "logging/"} {
		if strings.HasPrefix(method, p) {
			return true
		}
	}
	return method == mcp.NotificationMessage
}

func (c *Checker) request(f *calls.Frame, r func(rule, msg string)) {
	m, rec, p, call := f.Msg, f.Record, f.Params, f.Call
	if f.Has(calls.NoteIDReused) {
		r("message.id_reused", fmt.Sprintf("%s reuses id %s while %s id %s is in flight (now superseded)",
			m.Method, call.ID, f.Superseded.Method, f.Superseded.ID))
	}
	if f.Has(calls.NoteStateChanged) || f.Has(calls.NoteStateMissing) || f.Has(calls.NoteStateInvented) {
		how := "changed"
		switch {
		case f.Has(calls.NoteStateMissing):
			how = "is missing"
		case f.Has(calls.NoteStateInvented):
			how = "invented"
		}
		r("message.mrtr_state_not_echoed", fmt.Sprintf("MRTR retry %s id %s continues id %s but its requestState %s", m.Method, string(m.ID.Raw()), call.ID, how))
	}
	if rec.Dir == session.ServerToClient {
		if sessionModern(f) {
			r("transport.server_request", fmt.Sprintf("server sent a JSON-RPC request %q on a 2026-07-28 session", m.Method))
		}
		if calls.Modern(f.Session.Revision) && deprecatedMethod(m.Method) {
			r("era.deprecated_method", fmt.Sprintf("%s is deprecated in 2026-07-28", m.Method))
		}
		return
	}
	modern := calls.Modern(f.Revision)
	if !modern {
		return
	}
	if !f.Batch && (!p.HasVersion || len(p.ClientCaps) == 0 || string(p.ClientCaps) == "null") {
		var miss []string
		if !p.HasVersion {
			miss = append(miss, "protocolVersion")
		}
		if len(p.ClientCaps) == 0 || string(p.ClientCaps) == "null" {
			miss = append(miss, "clientCapabilities")
		}
		r("message.meta_missing", fmt.Sprintf("%s declares %s but its _meta lacks %s", m.Method, f.Revision, strings.Join(miss, " and ")))
	}
	if rules.RemovedIn2026(m.Method) {
		r("era.removed_method_used", fmt.Sprintf("%s was removed in 2026-07-28, which this request declares", m.Method))
	}
	if deprecatedMethod(m.Method) {
		r("era.deprecated_method", fmt.Sprintf("%s is deprecated in 2026-07-28", m.Method))
	}
	c.deprecatedCaps(f, p.ClientCaps, []string{"roots", "sampling"}, "client")
	if rec.Transport == session.HTTP && !f.Batch {
		c.routingHeaders(f, r)
		if m.Method == mcp.MethodToolsCall {
			c.paramHeaders(f, r)
		}
	}
}

func (c *Checker) deprecatedCaps(f *calls.Frame, caps json.RawMessage, names []string, who string) {
	if len(caps) == 0 {
		return
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(caps, &v) != nil {
		return
	}
	for _, n := range names {
		if raw, ok := v[n]; ok && string(raw) != "null" && c.once(f.Record.Session, "cap:"+who+":"+n) {
			c.report(f.Record.Session, "era.deprecated_capability", f.Record.Seq, f.Line,
				fmt.Sprintf("%s declares the %s capability, deprecated in 2026-07-28", who, n), nil)
		}
	}
}

// hdr returns the values of a header, matching the name without case.
func hdr(rec *session.Record, name string) []string {
	for k, v := range rec.Header {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return nil
}

func (c *Checker) routingHeaders(f *calls.Frame, r func(rule, msg string)) {
	m, rec, p := f.Msg, f.Record, f.Params
	pv, mm, mn := hdr(rec, "Mcp-Protocol-Version"), hdr(rec, "Mcp-Method"), hdr(rec, "Mcp-Name")
	needName := m.Method == mcp.MethodToolsCall || m.Method == mcp.MethodPromptsGet || m.Method == mcp.MethodResourcesRead ||
		m.Method == mcp.MethodTasksGet || m.Method == mcp.MethodTasksUpdate || m.Method == mcp.MethodTasksCancel
	var miss []string
	if len(pv) == 0 {
		miss = append(miss, "MCP-Protocol-Version")
	}
	if len(mm) == 0 {
		miss = append(miss, "Mcp-Method")
	}
	if needName && len(mn) == 0 {
		miss = append(miss, "Mcp-Name")
	}
	if len(miss) > 0 {
		r("transport.header_missing", fmt.Sprintf("%s: required routing header %s missing", m.Method, strings.Join(miss, ", ")))
	}
	if len(mm) > 0 && strings.TrimSpace(mm[0]) != m.Method {
		r("transport.header_method_mismatch", fmt.Sprintf("Mcp-Method %q, body method %q", mm[0], m.Method))
	}
	if len(pv) > 0 && p.HasVersion && strings.TrimSpace(pv[0]) != p.ProtocolVersion {
		r("transport.header_version_mismatch", fmt.Sprintf("MCP-Protocol-Version %q, _meta protocolVersion %q", pv[0], p.ProtocolVersion))
	}
	if len(mn) > 0 && needName && p.HasName {
		got, err := mcp.DecodeHeaderValue(strings.TrimSpace(mn[0]))
		if err == nil && got != p.Name {
			r("transport.header_name_mismatch", fmt.Sprintf("Mcp-Name %q, body %q", got, p.Name))
		}
	}
}

// paramHeaders checks the Mcp-Param-* headers of a modern tools/call
// against the bindings of the tool's latest definition. Calls to tools
// never listed are only observed.
func (c *Checker) paramHeaders(f *calls.Frame, r func(rule, msg string)) {
	rec, p := f.Record, f.Params
	def, ok := f.Session.Tool(p.Name)
	if !ok {
		return
	}
	bindings := def.Bindings()
	if len(bindings) == 0 || !mcp.ToolHeadersValid(bindings) {
		return
	}
	sent := map[string][]string{}
	for k, v := range rec.Header {
		if len(k) > len(mcp.ParamHeaderPrefix) && strings.EqualFold(k[:len(mcp.ParamHeaderPrefix)], mcp.ParamHeaderPrefix) {
			sent[strings.ToLower(k[len(mcp.ParamHeaderPrefix):])] = v
		}
	}
	want, err := mcp.ParamHeaders(bindings, p.Arguments)
	if err != nil {
		r("xhdr.param_header_invalid", fmt.Sprintf("tools/call %q: %v", p.Name, err))
		return
	}
	expected := map[string]string{}
	for _, w := range want {
		expected[strings.ToLower(w[0][len(mcp.ParamHeaderPrefix):])] = w[1]
	}
	for _, b := range bindings {
		name := strings.ToLower(b.Header)
		vals, has := sent[name]
		exp, bound := expected[name]
		path := strings.Join(b.Path, ".")
		switch {
		case bound && !has:
			r("xhdr.param_header_missing", fmt.Sprintf("tools/call %q: required routing header Mcp-Param-%s is missing for body parameter %q", p.Name, b.Header, path))
		case !bound && has:
			r("xhdr.param_header_invalid", fmt.Sprintf("tools/call %q: Mcp-Param-%s is sent but body parameter %q is absent or null", p.Name, b.Header, path))
		case bound && has:
			got, derr := decodeAll(vals)
			if derr != "" {
				r("xhdr.param_header_invalid", fmt.Sprintf("tools/call %q: Mcp-Param-%s %s", p.Name, b.Header, derr))
				continue
			}
			wantV, _ := mcp.DecodeHeaderValue(exp)
			if !sameValue(got, wantV, b.Type) {
				r("xhdr.param_header_mismatch", fmt.Sprintf("tools/call %q: Mcp-Param-%s %q, body parameter %q is %q", p.Name, b.Header, got, path, wantV))
			}
		}
	}
}

// decodeAll decodes a header's values; repeated values must agree.
func decodeAll(vals []string) (string, string) {
	var first string
	for i, v := range vals {
		d, err := mcp.DecodeHeaderValue(strings.TrimSpace(v))
		if err != nil {
			return "", "is not a valid value: " + err.Error()
		}
		if i == 0 {
			first = d
		} else if d != first {
			return "", "is repeated with conflicting values"
		}
	}
	return first, ""
}

func sameValue(got, want, typ string) bool {
	if typ == "integer" {
		a, ok1 := new(big.Rat).SetString(got)
		b, ok2 := new(big.Rat).SetString(want)
		return ok1 && ok2 && a.Cmp(b) == 0
	}
	return got == want
}

func (c *Checker) notification(f *calls.Frame, r func(rule, msg string)) {
	m, rec, p := f.Msg, f.Record, f.Params
	st := c.state(rec.Session)
	switch {
	case f.Has(calls.NoteProgressNotIncreasing):
		r("message.progress_not_increasing", fmt.Sprintf("progress %v for token %s does not exceed the previous value", p.Progress, p.ProgressToken))
	case f.Has(calls.NoteProgressLate):
		r("message.progress_after_completion", fmt.Sprintf("progress for token %s after its request completed", p.ProgressToken))
	}
	if m.Method == mcp.NotificationCancelled && rec.Dir == session.ServerToClient && f.Call != nil &&
		f.Call.Modern() && f.Call.Method != mcp.MethodSubscriptionsListen {
		r("message.server_cancelled", fmt.Sprintf("server cancelled %q id %s", f.Call.Method, f.Call.ID))
	}
	if rec.Dir == session.ClientToServer && calls.Modern(f.Revision) && deprecatedMethod(m.Method) {
		r("era.deprecated_method", fmt.Sprintf("%s is deprecated in 2026-07-28", m.Method))
	}
	if rec.Dir == session.ServerToClient && m.Method == mcp.NotificationMessage && sessionModern(f) {
		r("era.deprecated_method", "notifications/message (logging) is deprecated in 2026-07-28")
	}
	// Subscriptions.
	if f.Call != nil && f.Call.Method == mcp.MethodSubscriptionsListen && f.Has(calls.NoteListenNotification) {
		st.listenSeen = true
		if m.Method == mcp.NotificationSubscriptionsAcknowledged {
			f.Call.Acked = true
			return
		}
		if !f.Call.Acked {
			r("message.subscription_before_ack", fmt.Sprintf("%s for subscription %s before its acknowledgement", m.Method, f.Call.ID))
		}
		if !requested(f.Call.Listen, m.Method, p) {
			r("message.subscription_not_requested", fmt.Sprintf("%s on subscription %s, whose filter did not ask for it", m.Method, f.Call.ID))
		}
		return
	}
	if rec.Dir == session.ServerToClient && subscriptionType(m.Method) && (st.listenSeen || listenOpen(c, rec.Session)) && p.SubscriptionID == "" {
		r("message.subscription_id_missing", fmt.Sprintf("%s lacks _meta %s", m.Method, calls.MetaSubscriptionID))
	}
}

func listenOpen(c *Checker, sessionID string) bool {
	for _, call := range c.store.Open() {
		if call.Session == sessionID && call.Method == mcp.MethodSubscriptionsListen {
			c.state(sessionID).listenSeen = true
			return true
		}
	}
	return false
}

func subscriptionType(method string) bool {
	switch method {
	case mcp.NotificationToolsListChanged, mcp.NotificationPromptsListChanged,
		mcp.NotificationResourcesListChanged, mcp.NotificationResourcesUpdated:
		return true
	}
	return false
}

func requested(filter *calls.ListenFilter, method string, p *calls.Params) bool {
	if filter == nil {
		return !subscriptionType(method) && method != mcp.NotificationTasks
	}
	switch method {
	case mcp.NotificationToolsListChanged:
		return filter.ToolsListChanged
	case mcp.NotificationPromptsListChanged:
		return filter.PromptsListChanged
	case mcp.NotificationResourcesListChanged:
		return filter.ResourcesListChanged
	case mcp.NotificationResourcesUpdated:
		return len(filter.ResourceSubscriptions) > 0 && (p.Name == "" || slices.Contains(filter.ResourceSubscriptions, p.Name))
	case mcp.NotificationTasks:
		return len(filter.TaskIDs) > 0
	}
	return true
}

var mrtrMethods = []string{mcp.MethodToolsCall, mcp.MethodResourcesRead, mcp.MethodPromptsGet}
var inputMethods = []string{mcp.MethodElicitationCreate, mcp.MethodSamplingCreateMessage, mcp.MethodRootsList}

func (c *Checker) response(f *calls.Frame, r func(rule, msg string)) {
	m, rec, call := f.Msg, f.Record, f.Call
	st := c.state(rec.Session)
	if rec.Dir == session.ClientToServer && sessionModern(f) {
		r("message.client_response", fmt.Sprintf("client answered id %s on a 2026-07-28 session", string(m.ID.Raw())))
	}
	if f.Has(calls.NoteUnmatched) {
		if !(m.Error != nil && m.ID.IsNull()) && !st.truncatedReqs {
			r("message.response_unmatched", fmt.Sprintf("response id %s matches no request", string(m.ID.Raw())))
		}
		if m.Error != nil {
			r("message.error_response", fmt.Sprintf("error %d %s with no matching request", m.Error.Code, strconv.Quote(m.Error.Message)))
			c.codeRules(f, m.Error.Code, sessionModern(f), r)
		}
		return
	}
	if call == nil {
		return
	}
	what := call.Method
	if call.Name != "" {
		what += " " + strconv.Quote(call.Name)
	}
	if f.Has(calls.NoteInverted) {
		r("capture.order_inverted", invertedMessage(f, what))
	}
	switch {
	case f.Has(calls.NoteDuplicate):
		r("message.response_duplicate", fmt.Sprintf("%s id %s answered again", what, call.ID))
		return
	case f.Has(calls.NoteLate):
		r("message.late_result", fmt.Sprintf("%s id %s: result arrived %v after cancellation", what, call.ID, rec.Time.Sub(call.CancelledAt)))
	}
	if f.Has(calls.NoteError) {
		switch {
		case m.Error != nil:
			r("message.error_response", fmt.Sprintf("%s id %s: error %d %s", what, call.ID, m.Error.Code, strconv.Quote(m.Error.Message)))
		case f.Has(calls.NoteTaskSettled):
			r("message.error_response", fmt.Sprintf("task of %s id %s ended %s", what, call.ID, call.TaskStatus))
		default:
			r("message.error_response", fmt.Sprintf("%s id %s: result isError:true", what, call.ID))
		}
	}
	if m.Error != nil {
		c.codeRules(f, m.Error.Code, call.Modern(), r)
		return
	}
	modern := call.Modern()
	if rec.Transport == session.HTTP && rec.MCPSessionID != "" && modern && rec.Exchange != 0 &&
		c.once(rec.Session, "sid:"+strconv.FormatUint(rec.Exchange, 10)) {
		r("transport.session_id_echoed", fmt.Sprintf("response to a 2026-07-28 %s carries Mcp-Session-Id", call.Method))
	}
	if modern && rules.RemovedIn2026(call.Method) {
		r("era.removed_method_served", fmt.Sprintf("%s answered with a result to a request declaring %s", call.Method, call.Revision))
	}
	res := f.ParsedResult()
	if modern && call.Method != mcp.MethodInitialize {
		// RT-REQUIRED is judged by the same function as in compat.
		switch id, _ := rules.ResultTypeProblem(res.RawResultType); id {
		case "message.result_type_missing":
			r(id, fmt.Sprintf("result of %s is missing required resultType", what))
		case "message.result_type_invalid":
			r(id, fmt.Sprintf("result of %s has an invalid resultType %s", what, res.RawResultType))
		}
	}
	if res.ResultType == mcp.ResultTypeInputRequired && modern {
		c.inputRequired(f, call, res, r)
		return
	}
	if modern && slices.Contains(rules.CacheableMethods, call.Method) && call.Rounds == 1 &&
		(!res.HasResultType || res.ResultType == mcp.ResultTypeComplete) {
		if id, msg := rules.CacheHintProblem(m.Result); id != "" {
			r(id, fmt.Sprintf("%s: %s", call.Method, msg))
		}
		// CACHE-SCOPE-CONSISTENT-PAGES is judged by the same function as
		// in compat: the newest page against the first.
		if scopes := call.PageScopes(); len(scopes) > 1 && rules.PageScopeProblem(json.RawMessage(scopes[0]), json.RawMessage(scopes[len(scopes)-1])) != "" {
			r("cache.scope_inconsistent_across_pages", fmt.Sprintf("%s page %d has cacheScope %s, the first page %s", call.Method, len(scopes), orAbsent(scopes[len(scopes)-1]), orAbsent(scopes[0])))
		}
	}
	if call.Method == mcp.MethodDiscover && modern {
		var v struct {
			Capabilities json.RawMessage `json:"capabilities"`
		}
		if json.Unmarshal(m.Result, &v) == nil {
			c.deprecatedCaps(f, v.Capabilities, []string{"logging"}, "server")
		}
	}
	if f.Has(calls.NoteListPage) {
		c.toolList(f, m.Result, modern)
	}
	if call.Method == mcp.MethodToolsCall {
		c.scanCallResult(f, call, m.Result)
	}
	switch call.Method {
	case mcp.MethodPromptsList, mcp.MethodResourcesList, mcp.MethodResourcesTemplatesList:
		c.scanOtherList(f, call.Method, m.Result)
	}
}

func orAbsent(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}

func (c *Checker) codeRules(f *calls.Frame, code int64, modern bool, r func(rule, msg string)) {
	for _, id := range rules.CodeRules(code, modern) {
		r(id, fmt.Sprintf("error code %d", code))
	}
	if code == mcp.CodeHeaderMismatch && f.Record.Transport == session.HTTP {
		r("transport.header_mismatch_reported", "the server answered -32020 HeaderMismatch")
	}
}

func (c *Checker) inputRequired(f *calls.Frame, call *calls.Call, res *calls.Result, r func(rule, msg string)) {
	if !slices.Contains(mrtrMethods, call.Method) {
		r("message.mrtr_method_not_allowed", fmt.Sprintf("%s answered input_required", call.Method))
	}
	if len(res.InputRequests) == 0 && !res.HasState {
		r("message.mrtr_empty", "input_required result has neither inputRequests nor requestState")
	}
	if h, _ := mcp.CacheHintsOf(f.Msg.Result); h.TTLMs != nil || h.CacheScope != nil {
		r("cache.hints_on_input_required", "input_required result carries ttlMs or cacheScope")
	}
	keys := make([]string, 0, len(res.InputRequests))
	for k := range res.InputRequests {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	capsOK := json.Valid(call.ClientCaps)
	for _, k := range keys {
		var ir struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(res.InputRequests[k], &ir)
		if !slices.Contains(inputMethods, ir.Method) {
			r("message.mrtr_bad_input_request", fmt.Sprintf("inputRequests[%q] asks for %q", k, ir.Method))
			continue
		}
		if deprecatedMethod(ir.Method) {
			r("era.deprecated_method", fmt.Sprintf("inputRequests[%q] uses %s, deprecated in 2026-07-28", k, ir.Method))
		}
	}
	// MRTR-CAP-GATED is judged by the same function as in compat.
	if capsOK {
		for _, g := range rules.InputGaps(call.ClientCaps, f.Msg.Result) {
			r("degrade.input_required_without_capability", fmt.Sprintf("inputRequests[%q] asks for %s, which the request's clientCapabilities do not declare", g.Key, g.Need))
		}
	}
}

// toolList judges the tools of one tools/list page: input schema rules,
// observational schema findings and x-mcp-header validity, once per tool.
func (c *Checker) toolList(f *calls.Frame, result json.RawMessage, modern bool) {
	var v struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(result, &v) != nil {
		return
	}
	c.scanToolList(f, v.Tools)
	sess := f.Record.Session
	for _, raw := range v.Tools {
		var t struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if json.Unmarshal(raw, &t) != nil {
			continue
		}
		subject := "tool " + strconv.Quote(t.Name)
		emit := func(rule, msg string) {
			if c.once(sess, rule+"\x00"+t.Name+"\x00"+msg) {
				c.reportSubject(sess, rule, f.Record.Seq, f.Line, subject, msg, nil)
			}
		}
		if why := inputSchemaProblem(t.InputSchema); why != "" {
			emit("message.input_schema_invalid", fmt.Sprintf("tool %q advertises %s, and the schema requires an object schema with type \"object\"", t.Name, why))
		}
		for _, k := range schemaFindings(t.InputSchema, raw) {
			emit(k.rule, fmt.Sprintf("tool %q: %s", t.Name, k.msg))
		}
		if modern && len(bytes.TrimSpace(t.InputSchema)) > 0 && t.InputSchema[0] == '{' {
			bs, err := mcp.HeaderBindings(t.InputSchema)
			if err != nil {
				continue
			}
			for _, b := range bs {
				for _, id := range b.Violations {
					emit(id, fmt.Sprintf("tool %q declares x-mcp-header %q at %s: %s, so HTTP clients must drop the tool", t.Name, b.Header, b.PathString, rules.MustLookup(id).Summary))
				}
				for _, id := range b.Warnings {
					emit(id, fmt.Sprintf("tool %q declares x-mcp-header %q at %s: %s", t.Name, b.Header, b.PathString, rules.MustLookup(id).Summary))
				}
			}
		}
	}
}

func inputSchemaProblem(s json.RawMessage) string {
	s = bytes.TrimSpace(s)
	if len(s) == 0 {
		return "no inputSchema"
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(s, &obj) != nil || obj == nil {
		return "an inputSchema that is not an object"
	}
	t, ok := obj["type"]
	if !ok {
		return "an inputSchema without a root type"
	}
	switch string(bytes.TrimSpace(t)) {
	case `"object"`:
		return ""
	case "null":
		return "an inputSchema with a null root type"
	}
	if bytes.HasPrefix(bytes.TrimSpace(t), []byte("[")) {
		return "an inputSchema whose root type is a union " + string(t)
	}
	return "an inputSchema with root type " + string(t)
}

// clipFrame shows the start of a frame in a message, quoted.
func clipFrame(b []byte) string {
	const max = 80
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "…"
	}
	return strconv.Quote(string(b))
}

// invertedMessage says which response the log numbered before its request,
// and whose defect that is: the writer's, never the peer's.
func invertedMessage(f *calls.Frame, what string) string {
	msg := fmt.Sprintf("response seq %d was logged before its request seq %d (%s id %s): ", f.Record.Seq, f.InvertedBefore, what, f.Call.ID)
	if f.Session.WireOrder {
		return msg + "this log's writer promises the order of the wire (\"order\":\"wire\"), so mcpward's recorder is at fault; please report it"
	}
	return msg + "the writer numbered a read after forwarding it (a log written before \"order\":\"wire\", or by mcpsnoop), so a fast answer came first; paired, not the server's fault"
}
