package rules

import (
	"slices"
	"strings"
	"sync"
)

// Levels: the force of the spec clause a rule rests on.
const (
	MUST   = "MUST"
	SHOULD = "SHOULD"
	MAY    = "MAY"
)

// Classes: what a finding of the rule means for the exit code. A violation
// is exit 3 (the server is wrong), risky is exit 1 in `compat`, info never
// changes the exit code.
const (
	Violation = "violation"
	Risky     = "risky"
	Info      = "info"
)

// Groups of the catalogue.
const (
	GroupTransport = "transport" // T-group: Streamable HTTP framing
	GroupStdio     = "stdio"     // stdio framing
	GroupXhdr      = "xhdr"      // X-group: x-mcp-header
	GroupCache     = "cache"     // CacheableResult hints
	GroupError     = "error"     // error codes
	GroupMessage   = "message"   // message shape, any transport
	GroupEra       = "era"       // eras, versions, removed methods
	GroupCompat    = "compat"    // profile matrix and honesty across connections
	GroupDegrade   = "degrade"   // D-group: degradation under reduced profiles
	GroupCapture   = "capture"   // defects of the recording itself, not of a peer
	// GroupScan (scan.go) holds the rules of mcpward scan, GroupFuzz
	// (fuzz.go) those of mcpward fuzz.
)

// Signals: the counts `sessions check --fail-on` gates on that a traffic
// finding feeds (see Rule.Signal). They are mcpsnoop's names.
const (
	SignalError      = "error"
	SignalInvalid    = "invalid"
	SignalWarn       = "warn"
	SignalMismatch   = "mismatch"
	SignalPending    = "pending"
	SignalLateResult = "late-result"
	SignalDrift      = "drift"
	SignalDeprecated = "deprecated"
	SignalIncomplete = "incomplete"
	SignalSchema     = "schema"
)

// TrafficSignal returns the signal a traffic finding of the rule feeds:
// its Signal, else SignalWarn for a violation or risky rule (a protocol
// warning, as mcpsnoop's warn). An info rule with no Signal is an
// observation (mcpsnoop's "never fail check"): it feeds no signal, "",
// and only its id, level or class selects it.
func (r Rule) TrafficSignal() string {
	if r.Signal == "" && r.Class != Info {
		return SignalWarn
	}
	return r.Signal
}

// TrafficJudged reports whether the traffic checker judges the rule.
func (r Rule) TrafficJudged() bool { return r.Traffic && r.TrafficGap == "" }

// Transports a rule can be checked on.
const (
	OnHTTP  = "http"
	OnStdio = "stdio"
	OnAny   = "any"
)

// A Rule is one entry of the catalogue. Rules are data: ids never change
// once published.
type Rule struct {
	ID    string `json:"id"`
	Group string `json:"group"`
	Level string `json:"level"`
	Class string `json:"class"`
	// Summary is the one-line meaning of a finding ("what went wrong").
	Summary string `json:"summary"`
	// Spec names the clause(s) the rule rests on by mcpward's labels
	// (HTTP-GET-405), which docs/spec.md defines.
	Spec string `json:"spec"`
	// Section keys the part of the public specification the clause is in
	// (see [Rule.SpecRefs]); the key itself is never shown.
	Section string `json:"-"`
	// Must is the id of the MUST / MUST NOT clause (see [Clause]) a
	// violation-level rule rests on. Only a rule with one may be of class
	// violation (exit 3); the catalogue tests enforce it.
	Must string `json:"must,omitempty"`
	// On is the transport the rule is checked on (http, stdio, any).
	On string `json:"on"`
	// Aliases are ids other tools (snapgauge) or other engines use for the
	// same judgement; Lookup resolves them to this rule.
	Aliases []string `json:"aliases,omitempty"`
	// Traffic is true when the traffic checker can see the problem too.
	Traffic bool `json:"traffic,omitempty"`
	// Signal is the `sessions check --fail-on` signal a traffic finding of
	// the rule feeds (one of the Signal constants); empty means
	// SignalWarn, or none for an info rule (see TrafficSignal).
	Signal string `json:"-"`
	// TrafficGap, on a rule marked Traffic, says why the traffic checker
	// does not judge it yet (the evidence a log does not hold); empty when
	// it does.
	TrafficGap string `json:"-"`
	// Redactable is true for a traffic rule that compares values the
	// redactor may hide (a header with its body parameter, a requestState
	// with its echo): on a record flagged redacted it is not judged.
	Redactable bool `json:"-"`
	// Source names the published attack class a scan rule rests on
	// (GroupScan): those rules rest on no clause of the protocol.
	Source string `json:"source,omitempty"`
	// Note records why a level differs from a reference tool or how an
	// ambiguity of the spec is handled.
	Note string `json:"note,omitempty"`
}

// Clause returns the MUST clause the rule rests on, if it has one.
func (r Rule) Clause() (Clause, bool) {
	if r.Must == "" {
		return Clause{}, false
	}
	return LookupClause(r.Must)
}

// ruleTable is the conformance catalogue followed by the traffic, scan
// and fuzz rules, and the index of every id and alias in it; built on
// first use, not at start-up of every command (appending the catalogues
// at package init allocated 114 KB: TestPackageInitIsSmall in
// internal/cli).
var ruleTable = sync.OnceValues(func() ([]Rule, map[string]int) {
	table := slices.Concat(catalogue, trafficCatalogue, scanCatalogue, fuzzCatalogue)
	byID := map[string]int{}
	for i, r := range table {
		byID[r.ID] = i
		for _, a := range r.Aliases {
			byID[a] = i
		}
	}
	return table, byID
})

// All returns every rule, sorted by group order then id. The slice is a
// copy; callers may modify it.
func All() []Rule {
	table, _ := ruleTable()
	out := make([]Rule, len(table))
	for i, r := range table {
		out[i] = r
		out[i].Aliases = slices.Clone(r.Aliases)
	}
	slices.SortStableFunc(out, func(a, b Rule) int {
		if ga, gb := groupRank(a.Group), groupRank(b.Group); ga != gb {
			return ga - gb
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// Conformance returns the rules of the conformance catalogue (what
// probing judges, some of which traffic sees too), without the rules only
// the traffic checker judges, in the order of All.
func Conformance() []Rule {
	ids := map[string]bool{}
	for _, r := range catalogue {
		ids[r.ID] = true
	}
	return slices.DeleteFunc(All(), func(r Rule) bool { return !ids[r.ID] })
}

// Lookup returns the rule with the given id or alias.
func Lookup(id string) (Rule, bool) {
	table, byID := ruleTable()
	i, ok := byID[id]
	if !ok {
		return Rule{}, false
	}
	r := table[i]
	r.Aliases = slices.Clone(r.Aliases)
	return r, true
}

// MustLookup is Lookup for ids the engines hard-code; an unknown id is a
// programming error caught by the catalogue tests, and gives a placeholder
// rule rather than a panic.
func MustLookup(id string) Rule {
	if r, ok := Lookup(id); ok {
		return r
	}
	return Rule{ID: id, Level: MAY, Class: Info, Summary: "uncatalogued rule " + id}
}

// Groups returns the group names in catalogue order.
func Groups() []string { return slices.Clone(groupOrder) }

var groupOrder = []string{GroupTransport, GroupStdio, GroupXhdr, GroupCache, GroupError, GroupMessage, GroupEra, GroupCompat, GroupDegrade, GroupCapture, GroupScan, GroupFuzz}

func groupRank(g string) int {
	if i := slices.Index(groupOrder, g); i >= 0 {
		return i
	}
	return len(groupOrder)
}

// ClassRank orders classes worst first (violation 0, risky 1, info 2).
func ClassRank(c string) int {
	switch c {
	case Violation:
		return 0
	case Risky:
		return 1
	}
	return 2
}
