package snapgauge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
)

// ErrNotResult means the document is not a snapgauge result.
var ErrNotResult = errors.New("not a snapgauge result")

// IsResult reports whether data looks like a snapgauge result: an object
// with findings, summary and gate (the lean diff output has only those;
// check and compat add command, exitCode and more) and none of the keys of
// mcpward's own Result.
func IsResult(data []byte) bool {
	var head map[string]json.RawMessage
	if json.Unmarshal(data, &head) != nil {
		return false
	}
	for _, k := range []string{"findings", "summary", "gate"} {
		if _, ok := head[k]; !ok {
			return false
		}
	}
	for _, k := range []string{"tool", "schemaVersion"} {
		if _, ok := head[k]; ok {
			return false
		}
	}
	return true
}

// A sgResult is snapgauge's CheckOutput (a strict schema): the result
// JSON of check, diff and compat, and what `snapgauge report` reads. The
// lean diff output {findings, summary, gate} is the same with the rest
// absent.
type sgResult struct {
	Command *string `json:"command"`
	Target  *struct {
		Name      string `json:"name"`
		Transport string `json:"transport"`
	} `json:"target"`
	Findings []struct {
		RuleID  string `json:"ruleId"`
		Tier    string `json:"tier"`
		Subject string `json:"subject"`
		Message string `json:"message"`
		Before  any    `json:"before"`
		After   any    `json:"after"`
	} `json:"findings"`
	Summary *diff.Summary `json:"summary"`
	Gate    *struct {
		FailOn string `json:"failOn"`
		Failed bool   `json:"failed"`
	} `json:"gate"`
	Assertions []struct {
		ID      string `json:"id"`
		Level   string `json:"level"`
		Verdict string `json:"verdict"`
		Detail  string `json:"detail"`
		Cite    string `json:"cite"`
	} `json:"assertions"`
	Compat *struct {
		Era      string   `json:"era"`
		Profiles []string `json:"profiles"`
		Findings []struct {
			RuleID  string `json:"ruleId"`
			Class   string `json:"class"`
			Subject string `json:"subject"`
			Message string `json:"message"`
		} `json:"findings"`
		Verdicts map[string]map[string]string `json:"verdicts"`
	} `json:"compat"`
	Incomplete bool `json:"incomplete"`
	Updated    bool `json:"updated"`
	ExitCode   *int `json:"exitCode"`
}

// Result converts a saved snapgauge result (what `snapgauge check --json`,
// `compat --json` and `diff --json` print) to mcpward's Result, so every
// report format renders it. snapgauge's result schema is strict, so a
// member it does not define means the document is not one of its
// results: that is an error naming the member, not something dropped.
// Errors wrap [ErrNotResult].
func Result(data []byte) (*result.Result, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var sg sgResult
	if err := dec.Decode(&sg); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotResult, trimJSON(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: unexpected data after the result", ErrNotResult)
	}
	if sg.Summary == nil || sg.Gate == nil || sg.Findings == nil {
		return nil, fmt.Errorf("%w: findings, summary and gate are required", ErrNotResult)
	}
	r := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          "mcpward",
		Version:       "snapgauge",
		Command:       "diff",
		Findings:      make([]result.Finding, 0, len(sg.Findings)),
		Summary:       result.Summary{Summary: *sg.Summary},
		Gate:          result.Gate{FailOn: sg.Gate.FailOn, Failed: sg.Gate.Failed},
		Evidence:      result.Evidence{Complete: !sg.Incomplete},
		Updated:       sg.Updated,
	}
	if sg.Command != nil {
		switch *sg.Command {
		case "check", "diff", "compat":
			r.Command = *sg.Command
		default:
			return nil, fmt.Errorf("%w: command %q is not check, diff or compat", ErrNotResult, *sg.Command)
		}
	}
	if _, err := diff.ParseTier(r.Gate.FailOn); err != nil {
		return nil, fmt.Errorf("%w: gate.failOn: %v", ErrNotResult, err)
	}
	if t := sg.Target; t != nil {
		r.Target = &result.Target{Name: t.Name, Transport: t.Transport, Endpoint: t.Name}
	}
	for i, f := range sg.Findings {
		tier, err := diff.ParseTier(f.Tier)
		if err != nil {
			return nil, fmt.Errorf("%w: findings[%d].tier: %v", ErrNotResult, i, err)
		}
		r.Findings = append(r.Findings, result.Finding{Finding: diff.Finding{
			RuleID: f.RuleID, Tier: tier, Subject: f.Subject, Message: f.Message, Before: f.Before, After: f.After,
		}})
	}
	if sg.Incomplete {
		r.Evidence.Problems = []string{"snapgauge reported incomplete evidence (its result names no cause)"}
	}
	// The assertions' level and citation have no field of their own in a
	// mcpward Result: the citation goes with the detail, as snapgauge's
	// reporters print it, and the level onto the rule findings.
	levels := map[string]string{}
	if len(sg.Assertions) > 0 || sg.Compat != nil {
		r.Compat = &result.Compat{Era: "unknown", Profiles: []string{}, Assertions: []result.Assertion{}}
	}
	for _, a := range sg.Assertions {
		detail := a.Detail
		if a.Cite != "" {
			detail += " (" + a.Cite + ")"
		}
		r.Compat.Assertions = append(r.Compat.Assertions, result.Assertion{ID: a.ID, Verdict: a.Verdict, Detail: detail})
		levels[a.ID] = a.Level
	}
	if c := sg.Compat; c != nil {
		if c.Era != "" {
			r.Compat.Era = c.Era
		}
		if c.Profiles != nil {
			r.Compat.Profiles = c.Profiles
		}
		r.Compat.Verdicts = c.Verdicts
		for _, f := range c.Findings {
			level := levels[f.RuleID]
			if rule, ok := rules.Lookup(f.RuleID); ok && level == "" {
				level = rule.Level
			}
			r.Violations = append(r.Violations, result.RuleFinding{RuleID: f.RuleID, Level: level, Class: f.Class, Subject: f.Subject, Message: f.Message})
			switch f.Class {
			case "violation":
				r.Summary.Violations++
			case "risky":
				r.Summary.RiskyRules++
			}
		}
	}
	switch {
	case sg.ExitCode != nil:
		r.ExitCode = *sg.ExitCode
	case sg.Gate.Failed:
		r.ExitCode = result.Drift
	}
	if r.ExitCode < result.Clean || r.ExitCode > result.Internal {
		return nil, fmt.Errorf("%w: exitCode %d is not 0-5", ErrNotResult, r.ExitCode)
	}
	slices.SortStableFunc(r.Violations, func(a, b result.RuleFinding) int { return rules.ClassRank(a.Class) - rules.ClassRank(b.Class) })
	return r, nil
}

func trimJSON(err error) string {
	s := err.Error()
	if len(s) > 6 && s[:6] == "json: " {
		return s[6:]
	}
	return s
}
