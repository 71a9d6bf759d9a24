// Package result defines the one Result document that check, diff, compat
// and (later) sessions check produce. `--json` writes it as is; every other
// report format (text, md, github, sarif, junit) is a pure renderer of it in
// internal/report/<format>, and `mcpward report` re-renders a saved Result
// without probing again. The schema is documented in docs/result-schema.md.
package result

import (
	"encoding/json"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// SchemaVersion is the version of the Result document.
const SchemaVersion = 1

// A Result is the outcome of one check, diff or compat run.
type Result struct {
	SchemaVersion int `json:"schemaVersion"`
	// Tool is "mcpward"; Version its version.
	Tool    string `json:"tool"`
	Version string `json:"version"`
	// Command is "check", "diff" or "compat".
	Command string `json:"command"`
	// Target names what was checked (absent for an offline diff).
	Target *Target `json:"target,omitempty"`
	// Old and New are the compared snapshots.
	Old *SnapshotRef `json:"old,omitempty"`
	New *SnapshotRef `json:"new,omitempty"`
	// Findings are the diff findings after --ignore/--only filtering,
	// sorted tier descending, rule id, subject.
	Findings []Finding `json:"findings"`
	// Ignored counts findings dropped by --ignore/--only.
	Ignored int `json:"ignored,omitempty"`
	// Violations are rule findings from the conformance engine (compat,
	// transport, x-mcp-header, degradation) or from traffic checks.
	Violations []RuleFinding `json:"violations,omitempty"`
	Summary    Summary       `json:"summary"`
	Gate       Gate          `json:"gate"`
	// Evidence says whether the observation was complete. Missing evidence
	// is never "no change".
	Evidence Evidence `json:"evidence"`
	// NotEvaluated lists what the run did not evaluate and why (compat:
	// profiles the server cannot be used under, rule groups with nothing
	// to exercise). Nothing evaluated is not a pass.
	NotEvaluated []NotEvaluated `json:"notEvaluated,omitempty"`
	// Compat is what `compat` observed besides its rule findings, so that
	// `mcpward report -f text` re-prints compat's own report; check fills
	// it too when it ran the compat engine (its markdown and GitHub
	// reports show the assertions and the verdict grid). Absent otherwise.
	Compat *Compat `json:"compat,omitempty"`
	// Fuzz is what `fuzz` ran besides its rule findings: the era spoken,
	// the tools it called or left alone, the cases and each finding's
	// frames. Absent for other commands.
	Fuzz *Fuzz `json:"fuzz,omitempty"`
	// ExitCode is the code the producing command exited with.
	ExitCode int `json:"exitCode"`
	// Updated is true when check --update wrote a new snapshot.
	Updated bool `json:"updated,omitempty"`
	// Error is set only on a section of a fleet Result (see [Combine]):
	// the one-line error that stopped that target before it had a verdict
	// (exit 4 or 5); Hint is the remediation line that came with it.
	Error string `json:"error,omitempty"`
	Hint  string `json:"hint,omitempty"`
	// Targets are the per-target sections of a fleet run (check --all,
	// compat over several targets), in config order; each is a whole
	// Result of its own. Absent for a one-target run. See [Combine].
	Targets []Result `json:"targets,omitempty"`
}

// Target identifies the checked server (no secrets).
type Target struct {
	Name      string `json:"name,omitempty"`
	Transport string `json:"transport,omitempty"`
	// Endpoint is the URL, the command line, or the fixture name.
	Endpoint string `json:"endpoint,omitempty"`
}

// TargetOf is the one constructor of a report's target: the name,
// transport and endpoint of what a target's snapshot records
// (connect.Spec.Info), without secrets. A target known only by name (a
// fleet section that failed before it resolved) passes a TargetInfo with
// the name alone. compat and fuzz then put the transport they spoke
// ("stdio", "http") in Transport.
func TargetOf(ti snapshot.TargetInfo) *Target {
	return &Target{Name: ti.Name, Transport: ti.Transport, Endpoint: ti.Endpoint()}
}

// SnapshotRef points at one snapshot of a comparison.
type SnapshotRef struct {
	// Path is the file, relative to the working directory when possible;
	// "" for a live observation that was not written.
	Path          string `json:"path,omitempty"`
	RecordedAt    string `json:"recordedAt,omitempty"`
	SurfaceDigest string `json:"surfaceDigest,omitempty"`
	Server        string `json:"server,omitempty"` // serverInfo name@version
	Status        string `json:"status,omitempty"`
}

// A Finding is one diff finding, with where it points in the snapshot file.
type Finding struct {
	diff.Finding
	// Location is the snapshot file and JSON path the finding is about
	// (SARIF and GitHub annotations point there).
	Location *Location `json:"location,omitempty"`
}

// Location is a place in a file: a JSON path and, when known, a line.
type Location struct {
	File     string `json:"file,omitempty"`
	JSONPath string `json:"jsonPath,omitempty"`
	Line     int    `json:"line,omitempty"`
}

// A RuleFinding is one judgement of the rule catalogue.
type RuleFinding struct {
	RuleID string `json:"ruleId"`
	// Level is the spec force: "MUST", "SHOULD" or "MAY".
	Level string `json:"level"`
	// Class is "violation", "risky" or "info".
	Class   string `json:"class"`
	Subject string `json:"subject"`
	Message string `json:"message"`
	// Profile is the compat profile the finding was observed under.
	Profile string `json:"profile,omitempty"`
	// Spec is the clause the rule rests on.
	Spec string `json:"spec,omitempty"`
	// Evidence is the request and response that prove the finding.
	Evidence *Exchange `json:"evidence,omitempty"`
	Location *Location `json:"location,omitempty"`
	// Gated is true when the finding counted against the run's gate. Only
	// sessions check sets it: its --fail-on selects rule findings by
	// signal, rule id, level and class, so their class alone does not say.
	Gated bool `json:"gated,omitempty"`
}

// NotEvaluated is one thing a run did not evaluate, with the reason.
type NotEvaluated struct {
	// What names it: "profile legacy-2025-11-25", "degradation (D rules)".
	What string `json:"what"`
	Why  string `json:"why"`
}

// Exchange is a request and its response, raw, for a reader to check by
// hand.
type Exchange struct {
	Request  json.RawMessage `json:"request,omitempty"`
	Response json.RawMessage `json:"response,omitempty"`
	// HTTP details, when the exchange was over HTTP.
	Method        string            `json:"method,omitempty"`
	RequestHeader map[string]string `json:"requestHeader,omitempty"`
	Status        int               `json:"status,omitempty"`
	Note          string            `json:"note,omitempty"`
	// ServerRequests are the requests the server sent the client while
	// this exchange was in flight (legacy sessions: roots/list,
	// sampling/createMessage, elicitation/create, ping), each with
	// mcpward's reply as Response, in order.
	ServerRequests []Exchange `json:"serverRequests,omitempty"`
}

// Summary counts findings per tier and rule findings per class.
type Summary struct {
	diff.Summary
	Violations int `json:"violations"`
	RiskyRules int `json:"riskyRules,omitempty"`
}

// Gate records the gate that was applied and its verdict.
type Gate struct {
	FailOn string   `json:"failOn"`
	Only   []string `json:"only,omitempty"`
	Ignore []string `json:"ignore,omitempty"`
	Failed bool     `json:"failed"`
}

// Evidence says how complete the observation was.
type Evidence struct {
	Complete bool `json:"complete"`
	// Status is the live snapshot's observation status ("ok", "partial", …).
	Status string `json:"status,omitempty"`
	// Problems lists what could not be observed, one line each.
	Problems []string `json:"problems,omitempty"`
}

// Compat is the part of a `compat` run that is not a finding: the server's
// era and versions, the profiles run, every assertion and the tool ×
// profile verdicts.
type Compat struct {
	// Server is the server's self-description, name@version.
	Server string `json:"server,omitempty"`
	// Era is modern-only, dual, legacy or unknown.
	Era               string   `json:"era"`
	SupportedVersions []string `json:"supportedVersions,omitempty"`
	Profiles          []string `json:"profiles"`
	// Assertions are the rules checked, in the order they ran.
	Assertions []Assertion `json:"assertions"`
	// Verdicts maps tool → profile → verdict.
	Verdicts map[string]map[string]string `json:"verdicts,omitempty"`
}

// An Assertion is one rule compat checked and what it observed.
type Assertion struct {
	ID string `json:"id"`
	// Verdict is pass, fail, warn, n/a or skipped.
	Verdict string `json:"verdict"`
	// Detail is what was observed, or why the rule was not checked.
	Detail string `json:"detail"`
}

// Fuzz is the part of a `fuzz` run that is not a rule finding.
type Fuzz struct {
	// Server is the server's self-description, name@version.
	Server string `json:"server,omitempty"`
	// Era ("modern", "legacy"), Version (the revision spoken) and
	// Transport ("stdio", "http") are what the cases were generated for.
	Era       string `json:"era"`
	Version   string `json:"version"`
	Transport string `json:"transport"`
	Seed      uint64 `json:"seed"`
	// Cases is the number planned, Ran how many ran (fewer when
	// --duration ran out).
	Cases int `json:"cases"`
	Ran   int `json:"ran"`
	// MedianMs is the median answer time of well-formed requests;
	// CaseTimeoutMs how long a frame waited for its answer, and
	// RetryTimeoutMs how long the retry that confirms a hang or a zombie
	// waited.
	MedianMs       float64 `json:"medianMs"`
	CaseTimeoutMs  int64   `json:"caseTimeoutMs"`
	RetryTimeoutMs int64   `json:"retryTimeoutMs"`
	// Tools says for each tool whether tools/call went to it and why.
	Tools []FuzzTool `json:"tools"`
	// Findings are the cases behind the rule findings (Violations), in
	// the same order: Violations[i] is Findings[i].
	Findings []FuzzFinding `json:"findings"`
}

// FuzzTool is the safety decision for one tool.
type FuzzTool struct {
	Name   string `json:"name"`
	Called bool   `json:"called"`
	// Allowed is true when only --allow-tool made it called.
	Allowed bool   `json:"allowed,omitempty"`
	Why     string `json:"why"`
}

// FuzzFinding is the case that triggers one finding.
type FuzzFinding struct {
	RuleID string `json:"ruleId"`
	// Case is the generated case's name, Note what it sends.
	Case string `json:"case"`
	Note string `json:"note,omitempty"`
	// Frames are the frames that still trigger the finding, minimised
	// when Minimised is true.
	Frames    []FuzzFrame `json:"frames"`
	Minimised bool        `json:"minimised,omitempty"`
	// Same counts other cases that found the same rule and are not listed.
	Same int `json:"same,omitempty"`
	// Saved is the replay file written with --save.
	Saved string `json:"saved,omitempty"`
	// ElapsedMs is the time from the start of the run (connecting to the
	// server included) to the moment this finding was seen and, for a
	// hang or a zombie, confirmed; minimising it comes after.
	ElapsedMs int64 `json:"elapsedMs"`
}

// FuzzFrame is one frame as sent: Text is its bytes (invalid UTF-8 as
// U+FFFD, cut at 2 KiB), Bytes its length, and Base64 the exact bytes when
// they are not valid UTF-8 or were cut (the replay file always holds
// them whole).
type FuzzFrame struct {
	Text   string `json:"text"`
	Bytes  int    `json:"bytes"`
	Base64 string `json:"base64,omitempty"`
}
