package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// Verdicts of one tool under one profile, best first.
const (
	VerdictOK                = "ok"
	VerdictDeclinedCorrectly = "declined-correctly"
	VerdictDegradedReported  = "degraded-reported"
	VerdictDegradedSilent    = "degraded-silent"
	// VerdictFailed: the call failed and no rule says the server was wrong
	// to fail (a legacy profile, or a failure the evidence does not tie to
	// a missing capability).
	VerdictFailed = "failed"
	// VerdictNotJudged: the call got no answer that could be judged (the
	// evidence is incomplete).
	VerdictNotJudged = "not-judged"
	VerdictViolation = "violation"
)

var verdictOrder = []string{VerdictOK, VerdictDeclinedCorrectly, VerdictDegradedReported, VerdictDegradedSilent, VerdictFailed, VerdictNotJudged, VerdictViolation}

// WorseVerdict returns the worse of two verdicts ("" counts as best).
func WorseVerdict(a, b string) string {
	if slices.Index(verdictOrder, b) > slices.Index(verdictOrder, a) {
		return b
	}
	return a
}

// An Outcome is what one tools/call produced, as the judge needs it.
type Outcome struct {
	// Failure is set when no answer came (timeout, exit, transport error).
	Failure string
	// Error is the JSON-RPC error, if the answer was one.
	Error *OutcomeError
	// Result is the raw result of a successful answer.
	Result json.RawMessage
	// ServerRequests are the methods of the requests a legacy server sent
	// the client while the call was in flight (roots/list,
	// sampling/createMessage, elicitation/create, ping), in order.
	ServerRequests []string
}

// OutcomeError is a JSON-RPC error code and its data.
type OutcomeError struct {
	Code    int64
	Message string
	Data    json.RawMessage
}

// BaselineCall is what the same probe produced under the baseline profile.
type BaselineCall struct {
	Essence string
	// Exercised are the capabilities the baseline answer asked for
	// (input_required requests: elicitation, sampling, roots).
	Exercised []string
}

// Essence reduces an outcome to what must stay equal across profiles: the
// error code, or the result's shape without _meta (legacy results have no
// resultType; it is read as "complete", RT-ABSENT-IS-COMPLETE).
func Essence(o Outcome) string {
	switch {
	case o.Failure != "":
		return "failure"
	case o.Error != nil:
		return fmt.Sprintf("error:%d", o.Error.Code)
	}
	var v any
	if err := json.Unmarshal(o.Result, &v); err != nil {
		return "malformed"
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return "shape:" + snapshot.JCSString(snapshot.Shape(v))
	}
	rt, _ := obj["resultType"].(string)
	if rt == "" {
		rt = mcp.ResultTypeComplete
	}
	rest := map[string]any{}
	for k, x := range obj {
		if k != "_meta" && k != "resultType" {
			rest[k] = x
		}
	}
	return rt + ":" + snapshot.JCSString(snapshot.Shape(rest))
}

// Exercised returns the capabilities an answer asks the client for: the
// methods of an input_required result's inputRequests, mapped to
// capability names, sorted.
func Exercised(result json.RawMessage) []string {
	var r struct {
		ResultType    string `json:"resultType"`
		InputRequests map[string]struct {
			Method string `json:"method"`
		} `json:"inputRequests"`
	}
	if json.Unmarshal(result, &r) != nil || r.ResultType != mcp.ResultTypeInputRequired {
		return nil
	}
	set := map[string]bool{}
	for _, ir := range r.InputRequests {
		set[capabilityOf(ir.Method)] = true
	}
	return slices.Sorted(maps.Keys(set))
}

func capabilityOf(method string) string {
	switch method {
	case mcp.MethodElicitationCreate:
		return "elicitation"
	case mcp.MethodSamplingCreateMessage:
		return "sampling"
	case mcp.MethodRootsList:
		return "roots"
	}
	p, _, _ := strings.Cut(method, "/")
	return p
}

// MissingCapabilities reads the capability names of a -32021 error: the
// keys of data.requiredCapabilities (and of its extensions member), plus
// snapgauge's data.missing list. Sorted, deduplicated.
func MissingCapabilities(data json.RawMessage) []string {
	var d struct {
		Required map[string]json.RawMessage `json:"requiredCapabilities"`
		Missing  []string                   `json:"missing"`
	}
	_ = json.Unmarshal(data, &d)
	set := map[string]bool{}
	for k, v := range d.Required {
		if k == "extensions" {
			var ext map[string]json.RawMessage
			if json.Unmarshal(v, &ext) == nil {
				for e := range ext {
					set[e] = true
				}
			}
			continue
		}
		set[k] = true
	}
	for _, m := range d.Missing {
		if m != "" {
			set[m] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// A Judgement is the verdict for one tool under one profile and the
// findings it raises (rule id and message).
type Judgement struct {
	Verdict  string
	Findings []Judged
	// Incomplete says why the outcome could not be judged (no answer, and
	// nothing shows the server was wrong not to answer): missing evidence,
	// not a finding.
	Incomplete string
}

// Judged is one finding of a judgement.
type Judged struct {
	RuleID  string
	Message string
}

// JudgeOptions carry context the decision table needs.
type JudgeOptions struct {
	// HeaderAbsentHTTP is set for a profile that omits MCP-Protocol-Version
	// on HTTP: a -32020 rejection is then the correct answer.
	HeaderAbsentHTTP bool
	// ServerExtensions are the extension ids the server advertises; a
	// success that uses one the profile did not declare leaks it.
	ServerExtensions []string
}

// JudgeDegradation judges one probe replayed under a profile other than
// the baseline. A modern profile is judged by META-CAP-MISSING,
// MRTR-CAP-GATED and §1.5 (extensions); a legacy profile only by the
// legacy rules (§11: the server respects the capabilities declared in
// initialize), never by a 2026-07-28 rule.
//
// A violation needs evidence that breaks the clause: a failure is blamed
// on a missing capability only when the baseline showed the tool asks for
// a capability this profile did not declare.
func JudgeDegradation(p Profile, base BaselineCall, got Outcome, opts JudgeOptions) Judgement {
	if p.Legacy() {
		return judgeLegacy(p, got)
	}
	j := decide(p, base, got, opts)
	if got.Failure == "" && got.Error == nil {
		used, meta := leaks(p, got.Result, opts.ServerExtensions)
		for _, ext := range used {
			j.Verdict = VerdictViolation
			j.Findings = append(j.Findings, Judged{"degrade.extension_leak", fmt.Sprintf("the result's resultType belongs to extension %s, which profile %s did not declare", ext, p.Name)})
		}
		for _, ext := range meta {
			j.Findings = append(j.Findings, Judged{"degrade.extension_meta", fmt.Sprintf("the result carries _meta keys of extension %s, which profile %s did not declare", ext, p.Name)})
		}
	}
	return j
}

// judgeLegacy judges a call made on a legacy session opened with the
// profile's capabilities.
func judgeLegacy(p Profile, got Outcome) Judgement {
	var j Judgement
	caps := p.clientCaps()
	if p.ProtocolVersion >= "2025-06-18" {
		seen := map[string]bool{}
		for _, m := range got.ServerRequests {
			c := capabilityOf(m)
			if m == mcp.MethodPing || seen[m] || !isInputMethod(m) || caps.Declares(c) {
				continue
			}
			seen[m] = true
			j.Verdict = VerdictViolation
			j.Findings = append(j.Findings, Judged{"degrade.legacy_request_without_capability",
				fmt.Sprintf("the server sent %s to profile %s, which did not declare %s in initialize", m, p.Name, c)})
		}
	}
	if j.Verdict == VerdictViolation {
		return j
	}
	failed := ""
	switch {
	case got.Failure != "":
		return Judgement{Verdict: VerdictNotJudged, Incomplete: fmt.Sprintf("no answer under profile %s: %s", p.Name, got.Failure)}
	case got.Error != nil:
		failed = fmt.Sprintf("error %d (%s)", got.Error.Code, oneLine(got.Error.Message))
	case isErrorResult(got.Result):
		failed = "an isError result"
	default:
		return Judgement{Verdict: VerdictOK}
	}
	return Judgement{Verdict: VerdictFailed, Findings: []Judged{{"degrade.legacy_outcome",
		fmt.Sprintf("%s under legacy profile %s", failed, p.Name)}}}
}

func isInputMethod(m string) bool {
	return m == mcp.MethodElicitationCreate || m == mcp.MethodSamplingCreateMessage || m == mcp.MethodRootsList
}

func isErrorResult(result json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(result, &r) == nil && r.IsError
}

// clientCaps decodes the profile's ClientCapabilities.
func (p Profile) clientCaps() *mcp.ClientCapabilities {
	var c mcp.ClientCapabilities
	_ = json.Unmarshal(p.ClientCapabilities(), &c)
	return &c
}

// MissingRequired returns what a -32021's data.requiredCapabilities asks
// for that caps (a ClientCapabilities object) does not declare: a
// capability ("sampling"), a mode ("elicitation.url", "sampling.tools") or
// an extension id. Capabilities caps declares may be listed too: the
// schema says requiredCapabilities holds the capabilities the server
// requires, not only the missing ones.
func MissingRequired(caps json.RawMessage, data json.RawMessage) []string {
	var c mcp.ClientCapabilities
	_ = json.Unmarshal(caps, &c)
	var d struct {
		Required map[string]json.RawMessage `json:"requiredCapabilities"`
		Missing  []string                   `json:"missing"`
	}
	_ = json.Unmarshal(data, &d)
	set := map[string]bool{}
	for k, v := range d.Required {
		var sub map[string]json.RawMessage
		_ = json.Unmarshal(v, &sub)
		switch k {
		case "extensions":
			for e := range sub {
				if !c.Declares("extensions." + e) {
					set[e] = true
				}
			}
			continue
		case "experimental":
			for e := range sub {
				if _, ok := c.Experimental[e]; !ok {
					set["experimental."+e] = true
				}
			}
			continue
		}
		if !c.Declares(k) {
			set[k] = true
			continue
		}
		for m := range sub {
			if (k == "elicitation" || k == "sampling") && !c.Declares(k+"."+m) {
				set[k+"."+m] = true
			}
		}
	}
	for _, m := range d.Missing {
		if m != "" && !c.Declares(m) && !c.Declares("extensions."+m) {
			set[m] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// An InputGap is one inputRequests entry of an input_required result that
// asks for something the request's capabilities did not declare
// (MRTR-CAP-GATED).
type InputGap struct {
	// Key is the inputRequests key, Method the requested method.
	Key, Method string
	// Need is the capability or mode that was missing: "roots",
	// "sampling", "sampling.tools", "elicitation.form", "elicitation.url".
	Need string
}

// InputGaps judges an input_required result against the ClientCapabilities
// the request declared: elicitation needs the matching form or url mode
// (an empty elicitation object means form), sampling with tools or
// toolChoice needs sampling.tools, roots/list needs roots. Entries with
// other methods are another rule's business (MRTR-VALUE-TYPES). Sorted by
// key. Both engines (compat, traffic) judge MRTR-CAP-GATED with it.
func InputGaps(caps json.RawMessage, result json.RawMessage) []InputGap {
	var r struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
	}
	if json.Unmarshal(result, &r) != nil || r.ResultType != mcp.ResultTypeInputRequired {
		return nil
	}
	var c mcp.ClientCapabilities
	_ = json.Unmarshal(caps, &c)
	var out []InputGap
	for _, k := range slices.Sorted(maps.Keys(r.InputRequests)) {
		var ir struct {
			Method string `json:"method"`
			Params struct {
				Mode       string          `json:"mode"`
				Tools      json.RawMessage `json:"tools"`
				ToolChoice json.RawMessage `json:"toolChoice"`
			} `json:"params"`
		}
		if json.Unmarshal(r.InputRequests[k], &ir) != nil {
			continue
		}
		need := ""
		switch ir.Method {
		case mcp.MethodRootsList:
			need = "roots"
		case mcp.MethodSamplingCreateMessage:
			need = "sampling"
			if c.Declares("sampling") && (len(ir.Params.Tools) > 0 || len(ir.Params.ToolChoice) > 0) {
				need = "sampling.tools"
			}
		case mcp.MethodElicitationCreate:
			need = "elicitation.form"
			if ir.Params.Mode == "url" {
				need = "elicitation.url"
			}
		default:
			continue
		}
		if !c.Declares(need) {
			out = append(out, InputGap{Key: k, Method: ir.Method, Need: need})
		}
	}
	return out
}

func decide(p Profile, base BaselineCall, got Outcome, opts JudgeOptions) Judgement {
	viol := func(id, format string, args ...any) Judgement {
		return Judgement{Verdict: VerdictViolation, Findings: []Judged{{id, fmt.Sprintf(format, args...)}}}
	}
	caps := p.ClientCapabilities()
	// needed are the capabilities the baseline answer asked for that this
	// profile does not declare: the evidence that serving the request
	// needs a capability the profile lacks (META-CAP-MISSING).
	var needed []string
	for _, c := range base.Exercised {
		if !p.Declares(c) {
			needed = append(needed, c)
		}
	}
	unexplained := func(what string) Judgement {
		return Judgement{Verdict: VerdictFailed, Findings: []Judged{{"degrade.unexplained",
			fmt.Sprintf("%s under profile %s where the baseline gave %s; the baseline asked for no capability this profile lacks, so nothing shows a missing capability caused it", what, p.Name, base.Essence)}}}
	}
	if got.Failure != "" {
		if len(needed) > 0 {
			return viol("degrade.wrong_error", "no answer under profile %s (%s); the tool needs %s, which the profile did not declare: a missing capability is -32021", p.Name, got.Failure, strings.Join(needed, ", "))
		}
		return Judgement{Verdict: VerdictNotJudged, Incomplete: fmt.Sprintf("no answer under profile %s: %s", p.Name, got.Failure)}
	}
	essence := Essence(got)
	if e := got.Error; e != nil {
		if e.Code == mcp.CodeMissingClientCapability {
			if len(MissingCapabilities(e.Data)) == 0 {
				return viol("degrade.wrong_error", "-32021 without data.requiredCapabilities naming what is required")
			}
			missing := MissingRequired(caps, e.Data)
			if len(missing) == 0 {
				return viol("degrade.wrong_error", "-32021 requires only %s, all of which profile %s declared: nothing it names is missing",
					strings.Join(MissingCapabilities(e.Data), ", "), p.Name)
			}
			j := Judgement{Verdict: VerdictDeclinedCorrectly}
			for _, n := range missing {
				if !slices.Contains(base.Exercised, n) && !slices.Contains(base.Exercised, strings.SplitN(n, ".", 2)[0]) {
					j.Findings = append(j.Findings, Judged{"degrade.over_declared",
						fmt.Sprintf("-32021 requires %s, which the tool did not ask for under the baseline profile (it may need it on other calls)", n)})
				}
			}
			return j
		}
		if essence == base.Essence {
			return Judgement{Verdict: VerdictOK}
		}
		if opts.HeaderAbsentHTTP && e.Code == mcp.CodeHeaderMismatch {
			return Judgement{Verdict: VerdictDeclinedCorrectly}
		}
		what := fmt.Sprintf("error %d (%s)", e.Code, oneLine(e.Message))
		if len(needed) > 0 {
			return viol("degrade.wrong_error", "%s under profile %s; the tool asked for %s under the baseline and the profile did not declare it: a missing capability is -32021", what, p.Name, strings.Join(needed, ", "))
		}
		return unexplained(what)
	}
	// An input_required asking for an undeclared capability is wrong even
	// when the baseline asked the same (MRTR-CAP-GATED binds per request).
	if gaps := InputGaps(caps, got.Result); len(gaps) > 0 {
		var needs []string
		for _, g := range gaps {
			needs = append(needs, fmt.Sprintf("%s (%s, needs %s)", g.Key, g.Method, g.Need))
		}
		return viol("degrade.input_required_without_capability", "input_required asks for %s, which profile %s did not declare", strings.Join(needs, "; "), p.Name)
	}
	if essence == base.Essence {
		return Judgement{Verdict: VerdictOK}
	}
	var r struct {
		IsError    bool   `json:"isError"`
		ResultType string `json:"resultType"`
		Meta       struct {
			Degraded json.RawMessage `json:"mcp/degraded"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(got.Result, &r)
	if r.IsError {
		if len(needed) > 0 {
			return viol("degrade.wrong_error", "an isError result (prose) under profile %s; the tool asked for %s under the baseline and the profile did not declare it: a missing capability is -32021", p.Name, strings.Join(needed, ", "))
		}
		return unexplained("an isError result")
	}
	if r.ResultType == mcp.ResultTypeInputRequired {
		return Judgement{Verdict: VerdictOK}
	}
	var marker []string
	if len(r.Meta.Degraded) > 0 && json.Unmarshal(r.Meta.Degraded, &marker) == nil {
		return Judgement{Verdict: VerdictDegradedReported, Findings: []Judged{{"degrade.reported",
			fmt.Sprintf("reduced result under profile %s, marked _meta[\"mcp/degraded\"] = [%s] (snapgauge's convention)", p.Name, strings.Join(marker, ", "))}}}
	}
	return Judgement{Verdict: VerdictDegradedSilent, Findings: []Judged{{"degrade.silent",
		fmt.Sprintf("the result under profile %s differs from the baseline (a fallback, which the spec allows) and carries no _meta[\"mcp/degraded\"] marker (snapgauge's convention, in no revision)", p.Name)}}}
}

// leaks returns the extensions the result uses that the profile did not
// declare: used for a resultType "task" without the tasks extension or a
// resultType starting with "<ext>/" (the result is not core behaviour),
// meta for a _meta key starting with "<ext>/" of an extension the server
// advertises (clients ignore _meta keys they do not know, so that alone
// breaks no MUST).
func leaks(p Profile, result json.RawMessage, serverExt []string) (used, meta []string) {
	var r struct {
		ResultType string                     `json:"resultType"`
		Meta       map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(result, &r) != nil {
		return nil, nil
	}
	usedSet, metaSet := map[string]bool{}, map[string]bool{}
	if r.ResultType == mcp.ResultTypeTask && !p.Declares(mcp.ExtTasks) {
		usedSet[mcp.ExtTasks] = true
	}
	for _, ext := range serverExt {
		if p.Declares(ext) {
			continue
		}
		if strings.HasPrefix(r.ResultType, ext+"/") {
			usedSet[ext] = true
		}
		for k := range r.Meta {
			if strings.HasPrefix(k, ext+"/") {
				metaSet[ext] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(usedSet)), slices.Sorted(maps.Keys(metaSet))
}

// Era values of compat.era.
const (
	EraModernOnly = "modern-only"
	EraDual       = "dual"
	EraLegacy     = "legacy"
	EraUnknown    = "unknown"
)

// ClassifyEra classifies a server by which handshakes succeeded on fresh
// connections.
func ClassifyEra(discoverOK, initializeOK bool) string {
	switch {
	case discoverOK && initializeOK:
		return EraDual
	case discoverOK:
		return EraModernOnly
	case initializeOK:
		return EraLegacy
	}
	return EraUnknown
}

// CodeRules returns the error-code rules a modern answer's code breaks
// (a legacy answer breaks none): error.reserved_code for an undefined code
// in -32020…-32099, error.legacy_code_on_modern (-32002, -32042) and error.draft_code
// (-32001, -32003, -32004).
func CodeRules(code int64, modern bool) []string {
	var out []string
	if !modern {
		// JSON-RPC leaves -32000…-32099 to implementations: the 2026-07-28
		// reservation does not bind a legacy answer.
		return nil
	}
	if mcp.IsReservedUndefined(code) {
		out = append(out, "error.reserved_code")
	}
	{
		if code == mcp.CodeResourceNotFound || code == mcp.CodeURLElicitationRequired {
			out = append(out, "error.legacy_code_on_modern")
		}
		if mcp.IsDraftCode(code) {
			out = append(out, "error.draft_code")
		}
	}
	return out
}

// CacheHintProblem checks a complete result of a cacheable method: it
// returns "cache.hints_missing" or "cache.hints_invalid" with a message,
// or "" when both hints are present and valid. input_required results are
// exempt (CACHE-NO-HINTS-ON-IR). ttlMs is judged as JSON Schema's
// "integer" is: any number with an integer value, so 60000.0 and 6e4 are
// valid. The compat engine and the traffic checker both call it.
func CacheHintProblem(result json.RawMessage) (ruleID, message string) {
	if rt, _ := mcp.ResultTypeOf(result); rt == mcp.ResultTypeInputRequired {
		return "", ""
	}
	var v struct {
		TTLMs      json.RawMessage `json:"ttlMs"`
		CacheScope json.RawMessage `json:"cacheScope"`
	}
	if err := json.Unmarshal(result, &v); err != nil {
		return "cache.hints_invalid", "the result is not a JSON object"
	}
	present := func(r json.RawMessage) bool { return len(r) > 0 && string(r) != "null" }
	var missing []string
	if !present(v.TTLMs) {
		missing = append(missing, "ttlMs")
	}
	if !present(v.CacheScope) {
		missing = append(missing, "cacheScope")
	}
	if len(missing) > 0 {
		return "cache.hints_missing", "no " + strings.Join(missing, ", no ")
	}
	ttl := bytes.TrimSpace(v.TTLMs)
	n, ok := new(big.Float).SetString(string(ttl))
	switch {
	case ttl[0] == '"' || !ok:
		return "cache.hints_invalid", fmt.Sprintf("ttlMs is %s (must be an integer ≥ 0)", ttl)
	case !n.IsInt():
		return "cache.hints_invalid", fmt.Sprintf("ttlMs is %s, not an integer", ttl)
	case n.Sign() < 0:
		return "cache.hints_invalid", fmt.Sprintf("ttlMs is %s (must be ≥ 0)", ttl)
	}
	var scope string
	if json.Unmarshal(v.CacheScope, &scope) != nil {
		return "cache.hints_invalid", fmt.Sprintf("cacheScope is %s, not a string", bytes.TrimSpace(v.CacheScope))
	}
	if scope != mcp.CacheScopePublic && scope != mcp.CacheScopePrivate {
		return "cache.hints_invalid", fmt.Sprintf("cacheScope is %q (must be public or private)", scope)
	}
	return "", ""
}

// RemovedIn2026 reports whether method is one 2026-07-28 removed (ping,
// logging/setLevel, resources/subscribe…): a request declaring 2026-07-28
// that uses it is era.removed_method_used, a modern server that answers
// it with a result era.removed_method_served. The traffic checker judges
// both with it; compat probes a modern-only server with two of these
// methods.
func RemovedIn2026(method string) bool { return removedIn2026[method] }

var removedIn2026 = map[string]bool{
	mcp.MethodInitialize: true, mcp.MethodPing: true, mcp.MethodLoggingSetLevel: true,
	mcp.MethodResourcesSubscribe: true, mcp.MethodResourcesUnsubscribe: true,
	mcp.NotificationRootsListChanged: true, mcp.NotificationElicitationComplete: true,
	mcp.MethodTasksResult: true, mcp.MethodTasksList: true,
}

// PageScopeProblem judges one page of a list against the list's first
// page by their raw cacheScope members (nil when absent):
// "cache.scope_inconsistent_across_pages" when the values differ, ""
// when they agree (CACHE-SCOPE-CONSISTENT-PAGES). Strings are compared
// decoded; an absent member and null are the same value, "no scope",
// and any other value is compared by its bytes. compat and the traffic
// checker both call it.
func PageScopeProblem(first, page json.RawMessage) (ruleID string) {
	if scopeValue(first) != scopeValue(page) {
		return "cache.scope_inconsistent_across_pages"
	}
	return ""
}

func scopeValue(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "\x00absent"
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return "\x00string " + s
	}
	return string(raw)
}

// ResultTypeProblem judges a modern result's resultType member (member
// is its raw bytes, nil when absent, as [ResultTypeMember] returns it):
// "message.result_type_missing" when absent, "message.result_type_invalid"
// when null, not a string or empty, "" when present (the set of values is
// open: extensions add values). compat and the traffic checker both call
// it (RT-REQUIRED).
func ResultTypeProblem(member json.RawMessage) (ruleID, message string) {
	if member == nil {
		return "message.result_type_missing", "no resultType"
	}
	var s string
	if json.Unmarshal(member, &s) != nil || s == "" {
		return "message.result_type_invalid", fmt.Sprintf("resultType is %s", bytes.TrimSpace(member))
	}
	return "", ""
}

// ResultTypeMember returns the raw resultType member of a result object,
// nil when absent (or when result is not an object).
func ResultTypeMember(result json.RawMessage) json.RawMessage {
	var v struct {
		ResultType json.RawMessage `json:"resultType"`
	}
	if json.Unmarshal(result, &v) != nil {
		return nil
	}
	return v.ResultType
}

// CacheableMethods are the methods whose complete results carry hints.
var CacheableMethods = []string{mcp.MethodDiscover, mcp.MethodToolsList, mcp.MethodPromptsList, mcp.MethodResourcesList, mcp.MethodResourcesTemplatesList, mcp.MethodResourcesRead}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}
