package rules

import (
	"encoding/json"
	"fmt"
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
	VerdictViolation         = "violation"
)

var verdictOrder = []string{VerdictOK, VerdictDeclinedCorrectly, VerdictDegradedReported, VerdictDegradedSilent, VerdictViolation}

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
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
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
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// A Judgement is the verdict for one tool under one profile and the
// findings it raises (rule id and message).
type Judgement struct {
	Verdict  string
	Findings []Judged
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

// JudgeDegradation applies snapgauge §5's decision table to one probe
// replayed under a reduced profile.
func JudgeDegradation(p Profile, base BaselineCall, got Outcome, opts JudgeOptions) Judgement {
	j := decide(p, base, got, opts)
	if got.Failure == "" && got.Error == nil {
		for _, ext := range leaks(p, got.Result, opts.ServerExtensions) {
			j.Verdict = VerdictViolation
			j.Findings = append(j.Findings, Judged{"degrade.extension_leak", fmt.Sprintf("the result uses extension %s, which profile %s did not declare", ext, p.Name)})
		}
	}
	return j
}

func decide(p Profile, base BaselineCall, got Outcome, opts JudgeOptions) Judgement {
	viol := func(id, format string, args ...any) Judgement {
		return Judgement{Verdict: VerdictViolation, Findings: []Judged{{id, fmt.Sprintf(format, args...)}}}
	}
	if got.Failure != "" {
		return viol("degrade.wrong_error", "no answer under profile %s: %s", p.Name, got.Failure)
	}
	essence := Essence(got)
	if e := got.Error; e != nil {
		if e.Code == mcp.CodeMissingClientCapability {
			names := MissingCapabilities(e.Data)
			if len(names) == 0 {
				return viol("degrade.wrong_error", "-32021 without data.requiredCapabilities naming what is missing")
			}
			for _, n := range names {
				if p.Declares(n) {
					return viol("degrade.wrong_error", "-32021 names %s, which profile %s declared", n, p.Name)
				}
			}
			for _, n := range names {
				if !slices.Contains(base.Exercised, n) {
					return viol("degrade.over_declared", "-32021 names %s, which the tool never asked for under the baseline profile", n)
				}
			}
			return Judgement{Verdict: VerdictDeclinedCorrectly}
		}
		if essence == base.Essence {
			return Judgement{Verdict: VerdictOK}
		}
		if opts.HeaderAbsentHTTP && e.Code == mcp.CodeHeaderMismatch {
			return Judgement{Verdict: VerdictDeclinedCorrectly}
		}
		return viol("degrade.wrong_error", "error %d (%s) under profile %s where the baseline gave %s; a missing capability is -32021", e.Code, oneLine(e.Message), p.Name, base.Essence)
	}
	// An input_required asking for an undeclared capability is wrong even
	// when the baseline asked the same (MRTR-CAP-GATED binds per request).
	var undeclared []string
	for _, c := range Exercised(got.Result) {
		if !p.Declares(c) {
			undeclared = append(undeclared, c)
		}
	}
	if len(undeclared) > 0 {
		return viol("degrade.input_required_without_capability", "input_required asks for %s, which profile %s did not declare", strings.Join(undeclared, ", "), p.Name)
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
		return viol("degrade.wrong_error", "an isError result (prose) under profile %s instead of -32021", p.Name)
	}
	if r.ResultType == mcp.ResultTypeInputRequired {
		return Judgement{Verdict: VerdictOK}
	}
	var marker []string
	if len(r.Meta.Degraded) > 0 && json.Unmarshal(r.Meta.Degraded, &marker) == nil {
		return Judgement{Verdict: VerdictDegradedReported, Findings: []Judged{{"degrade.reported",
			fmt.Sprintf("reduced result under profile %s, marked _meta[\"mcp/degraded\"] = [%s]", p.Name, strings.Join(marker, ", "))}}}
	}
	return Judgement{Verdict: VerdictDegradedSilent, Findings: []Judged{{"degrade.silent",
		fmt.Sprintf("the result under profile %s differs from the baseline and carries no _meta[\"mcp/degraded\"] marker", p.Name)}}}
}

// leaks returns the extensions the result uses that the profile did not
// declare: a resultType "task" without the tasks extension, or a resultType
// or _meta key starting with "<ext>/" for an extension the server
// advertises.
func leaks(p Profile, result json.RawMessage, serverExt []string) []string {
	var r struct {
		ResultType string                     `json:"resultType"`
		Meta       map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(result, &r) != nil {
		return nil
	}
	set := map[string]bool{}
	if r.ResultType == mcp.ResultTypeTask && !p.Declares(mcp.ExtTasks) {
		set[mcp.ExtTasks] = true
	}
	for _, ext := range serverExt {
		if p.Declares(ext) {
			continue
		}
		if strings.HasPrefix(r.ResultType, ext+"/") {
			set[ext] = true
		}
		for k := range r.Meta {
			if strings.HasPrefix(k, ext+"/") {
				set[ext] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
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

// CodeRules returns the error-code rules a code breaks: error.reserved_code
// for an undefined code in -32020…-32099, and for a modern answer
// error.legacy_code_on_modern (-32002, -32042) and error.draft_code
// (-32001, -32003, -32004).
func CodeRules(code int64, modern bool) []string {
	var out []string
	if mcp.IsReservedUndefined(code) {
		out = append(out, "error.reserved_code")
	}
	if modern {
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
// exempt (CACHE-NO-HINTS-ON-IR).
func CacheHintProblem(result json.RawMessage) (ruleID, message string) {
	if rt, _ := mcp.ResultTypeOf(result); rt == mcp.ResultTypeInputRequired {
		return "", ""
	}
	h, err := mcp.CacheHintsOf(result)
	if err != nil {
		return "cache.hints_invalid", err.Error()
	}
	var missing []string
	if h.TTLMs == nil {
		missing = append(missing, "ttlMs")
	}
	if h.CacheScope == nil {
		missing = append(missing, "cacheScope")
	}
	if len(missing) > 0 {
		return "cache.hints_missing", "no " + strings.Join(missing, ", no ")
	}
	if *h.TTLMs < 0 {
		return "cache.hints_invalid", fmt.Sprintf("ttlMs is %d (must be ≥ 0)", *h.TTLMs)
	}
	if s := *h.CacheScope; s != mcp.CacheScopePublic && s != mcp.CacheScopePrivate {
		return "cache.hints_invalid", fmt.Sprintf("cacheScope is %q (must be public or private)", s)
	}
	return "", ""
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
