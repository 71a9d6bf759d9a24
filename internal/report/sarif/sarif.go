package sarif

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// Schema and Version identify the SARIF dialect written.
const (
	Schema  = "https://json.schemastore.org/sarif-2.1.0.json"
	Version = "2.1.0"
)

// InformationURI is the driver's informationUri.
const InformationURI = "https://github.com/mcpward/mcpward"

// FingerprintKey names the partialFingerprints entry; the version suffix
// changes if the hashed fields ever do, so that old alerts are not matched
// against a different identity.
const FingerprintKey = "mcpwardFinding/v1"

type log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []run  `json:"runs"`
}

type run struct {
	Tool              tool               `json:"tool"`
	AutomationDetails *automationDetails `json:"automationDetails,omitempty"`
	Invocations       []invocation       `json:"invocations"`
	Results           []sresult          `json:"results"`
	Properties        map[string]any     `json:"properties,omitempty"`
}

// automationDetails identifies a run among the runs of one log: GitHub
// code scanning takes the part before the last "/" of its id as the
// run's category, and refuses a log with two runs of one tool in one
// category.
type automationDetails struct {
	ID string `json:"id"`
}

type tool struct {
	Driver driver `json:"driver"`
}

type driver struct {
	Name           string       `json:"name"`
	Version        string       `json:"version,omitempty"`
	InformationURI string       `json:"informationUri"`
	Rules          []descriptor `json:"rules"`
}

type descriptor struct {
	ID                   string         `json:"id"`
	ShortDescription     *message       `json:"shortDescription,omitempty"`
	FullDescription      *message       `json:"fullDescription,omitempty"`
	DefaultConfiguration configuration  `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties,omitempty"`
}

type configuration struct {
	Level string `json:"level"`
}

type message struct {
	Text string `json:"text"`
}

type invocation struct {
	ExecutionSuccessful        bool           `json:"executionSuccessful"`
	ExitCode                   int            `json:"exitCode"`
	ToolExecutionNotifications []notification `json:"toolExecutionNotifications,omitempty"`
}

type notification struct {
	Level   string  `json:"level"`
	Message message `json:"message"`
}

type sresult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             message           `json:"message"`
	Locations           []location        `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

type location struct {
	PhysicalLocation *physicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []logicalLocation `json:"logicalLocations,omitempty"`
}

type physicalLocation struct {
	ArtifactLocation artifactLocation `json:"artifactLocation"`
	Region           *region          `json:"region,omitempty"`
}

type artifactLocation struct {
	URI string `json:"uri"`
}

type region struct {
	StartLine int `json:"startLine"`
}

type logicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
}

// Write renders r as a SARIF 2.1.0 log.
func Write(w io.Writer, r *result.Result) error {
	return render.JSON(w, build(r))
}

// TierLevel is the SARIF level of a diff finding's tier.
func TierLevel(t diff.Tier) string {
	switch t {
	case diff.Breaking:
		return "error"
	case diff.Risky:
		return "warning"
	}
	return "note"
}

// ClassLevel is the SARIF level of a rule finding's class.
func ClassLevel(c string) string {
	switch c {
	case "violation":
		return "error"
	case "risky":
		return "warning"
	}
	return "note"
}

// sessions check gates by --fail-on (signals, rule ids, levels,
// classes), so there a finding's level follows the gate, as mcpsnoop's
// SARIF did: a selected finding is an error, one below the gate a warning
// (violation, risky; a breaking or risky drift) or a note (info). Other
// commands keep the level of the tier or class.
func findingLevel(r *result.Result, f result.Finding) string {
	if r.Command != "sessions-check" {
		return TierLevel(f.Tier)
	}
	if render.FindingFails(r, f) {
		return "error"
	}
	if f.Tier >= diff.Risky {
		return "warning"
	}
	return "note"
}

func ruleLevel(r *result.Result, v result.RuleFinding) string {
	if r.Command != "sessions-check" {
		return ClassLevel(v.Class)
	}
	if v.Gated {
		return "error"
	}
	if v.Class == "info" {
		return "note"
	}
	return "warning"
}

// Fingerprint is the stable identity of a finding: the hex sha256 of its
// rule id, subject and (for rule findings) profile, each preceded by its
// length so that no two different triples hash the same bytes. Message text
// and times are left out on purpose: rewording a message must not reopen
// an alert.
func Fingerprint(ruleID, subject, profile string) string {
	h := sha256.New()
	fields := []string{ruleID, subject}
	if profile != "" {
		fields = append(fields, profile)
	}
	for _, f := range fields {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(f))))
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

var catalogue = sync.OnceValue(func() map[string]diff.RuleInfo {
	m := map[string]diff.RuleInfo{}
	for _, ri := range diff.Rules() {
		m[ri.ID] = ri
	}
	return m
})

func build(r *result.Result) *log {
	l := &log{Schema: Schema, Version: Version}
	if len(r.Targets) == 0 {
		l.Runs = []run{buildRun(r)}
		return l
	}
	// A fleet is one run per target, in the Result's order, each named
	// by the target in its automation id and its properties.
	for i := range r.Targets {
		s := &r.Targets[i]
		ru := buildRun(s)
		name := "?"
		if s.Target != nil && s.Target.Name != "" {
			name = s.Target.Name
		}
		ru.AutomationDetails = &automationDetails{ID: AutomationID(s.Command, name)}
		ru.Properties["target"] = name
		l.Runs = append(l.Runs, ru)
	}
	return l
}

// AutomationID is the automationDetails id of a fleet target's run,
// "mcpward/<command>/<target>/": its category (the id up to the last
// "/") is distinct per target, so code scanning keeps each target's
// alerts apart.
func AutomationID(command, target string) string {
	return "mcpward/" + strings.ReplaceAll(command, " ", "-") + "/" + target + "/"
}

func buildRun(r *result.Result) run {
	rules := descriptors(r)
	index := map[string]int{}
	for i, d := range rules {
		index[d.ID] = i
	}
	results := []sresult{}
	for _, f := range r.Findings {
		props := map[string]any{"tier": f.Tier.String()}
		if f.Location != nil && f.Location.JSONPath != "" {
			props["jsonPath"] = f.Location.JSONPath
		}
		results = append(results, sresult{
			RuleID:              f.RuleID,
			RuleIndex:           index[f.RuleID],
			Level:               findingLevel(r, f),
			Message:             message{f.Subject + " — " + f.Message},
			Locations:           locations(r, f.Location, f.Subject),
			PartialFingerprints: map[string]string{FingerprintKey: Fingerprint(f.RuleID, f.Subject, "")},
			Properties:          props,
		})
	}
	for _, v := range render.RuleFindings(r) {
		props := map[string]any{"class": v.Class}
		for k, s := range map[string]string{"specLevel": v.Level, "profile": v.Profile, "spec": v.Spec} {
			if s != "" {
				props[k] = s
			}
		}
		if v.Location != nil && v.Location.JSONPath != "" {
			props["jsonPath"] = v.Location.JSONPath
		}
		results = append(results, sresult{
			RuleID:              v.RuleID,
			RuleIndex:           index[v.RuleID],
			Level:               ruleLevel(r, v),
			Message:             message{v.Subject + " — " + v.Message},
			Locations:           locations(r, v.Location, v.Subject),
			PartialFingerprints: map[string]string{FingerprintKey: Fingerprint(v.RuleID, v.Subject, v.Profile)},
			Properties:          props,
		})
	}
	inv := invocation{ExecutionSuccessful: r.Evidence.Complete, ExitCode: r.ExitCode}
	if r.Error != "" {
		// A fleet target that stopped before its verdict.
		text := "not judged: " + termsafe.Line(r.Error)
		if r.Hint != "" {
			text += " (hint: " + termsafe.Line(r.Hint) + ")"
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
			notification{Level: "error", Message: message{text}})
	}
	if r.Error == "" {
		for _, p := range render.Problems(r) {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
				notification{Level: "error", Message: message{"incomplete evidence: " + p}})
		}
		// A pass covers only what was evaluated (a first-seen tool
		// baseline was trusted, not verified).
		for _, n := range r.NotEvaluated {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
				notification{Level: "note", Message: message{"not evaluated: " + termsafe.Line(n.What) + " — " + termsafe.Line(n.Why)}})
		}
	}
	runProps := map[string]any{
		"command": r.Command,
		"failOn":  render.FailOnName(r),
		"verdict": render.VerdictOf(r).Label,
	}
	if r.Target != nil && r.Target.Name != "" {
		runProps["target"] = r.Target.Name
	}
	return run{
		Tool: tool{Driver: driver{
			Name:           "mcpward",
			Version:        r.Version,
			InformationURI: InformationURI,
			Rules:          rules,
		}},
		Invocations: []invocation{inv},
		Results:     results,
		Properties:  runProps,
	}
}

// descriptors returns one reportingDescriptor per rule id used, sorted by
// id. A diff rule takes its descriptions from the diff catalogue.
func descriptors(r *result.Result) []descriptor {
	seen := map[string]descriptor{}
	for _, f := range r.Findings {
		if _, ok := seen[f.RuleID]; ok {
			continue
		}
		d := descriptor{ID: f.RuleID, DefaultConfiguration: configuration{TierLevel(f.Tier)},
			Properties: map[string]any{"tier": f.Tier.String()}}
		if ri, ok := catalogue()[f.RuleID]; ok {
			d.ShortDescription = &message{ri.Summary}
			d.FullDescription = &message{ri.Rationale}
			d.DefaultConfiguration.Level = TierLevel(ri.Tier)
			d.Properties["tier"] = ri.Tier.String()
		} else {
			d.ShortDescription = &message{f.RuleID}
		}
		seen[f.RuleID] = d
	}
	for _, v := range r.Violations {
		if _, ok := seen[v.RuleID]; ok {
			continue
		}
		short := v.RuleID
		if v.Level != "" {
			short += " (" + v.Level + ")"
		}
		if v.Spec != "" {
			short += ": " + v.Spec
		}
		d := descriptor{ID: v.RuleID, ShortDescription: &message{short},
			DefaultConfiguration: configuration{ClassLevel(v.Class)},
			Properties:           map[string]any{"class": v.Class}}
		// The conformance and traffic rules describe themselves in the one
		// rule catalogue: its summary, and the clause it rests on.
		if ru, ok := rules.Lookup(v.RuleID); ok {
			d.ShortDescription = &message{ru.Summary}
			full := ru.Level + ": " + ru.Cite()
			if ru.Note != "" {
				full += ". " + ru.Note
			}
			d.FullDescription = &message{full}
			d.Properties["level"] = ru.Level
			d.Properties["group"] = ru.Group
		}
		seen[v.RuleID] = d
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]descriptor, 0, len(ids))
	for _, id := range ids {
		out = append(out, seen[id])
	}
	return out
}

// locations points a result at its file (the finding's own, else the
// compared snapshot) and at its subject as a logical location.
func locations(r *result.Result, loc *result.Location, subject string) []location {
	var l location
	file, line := "", 0
	if loc != nil {
		file, line = loc.File, loc.Line
	}
	if file == "" && r.Old != nil {
		file = r.Old.Path
	}
	if file == "" && r.New != nil {
		file = r.New.Path
	}
	if file != "" {
		l.PhysicalLocation = &physicalLocation{ArtifactLocation: artifactLocation{URI: URIReference(file)}}
		if line > 0 {
			l.PhysicalLocation.Region = &region{StartLine: line}
		}
	}
	if subject != "" {
		l.LogicalLocations = []logicalLocation{{FullyQualifiedName: subject}}
	}
	if l.PhysicalLocation == nil && l.LogicalLocations == nil {
		return []location{}
	}
	return []location{l}
}

// URIReference turns a file path into a relative URI reference: backslashes
// become slashes and every byte outside the unreserved set, '/' and a few
// sub-delimiters is percent-encoded (':' too, so that "c:/x" or "a:b" is
// not read as a scheme).
func URIReference(path string) string {
	path = strings.ReplaceAll(path, `\`, "/")
	const hexdig = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("-._~/!$&'()*+=@", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hexdig[c>>4])
			b.WriteByte(hexdig[c&15])
		}
	}
	return b.String()
}
