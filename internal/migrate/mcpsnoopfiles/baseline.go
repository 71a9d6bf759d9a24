package mcpsnoopfiles

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/baseline"
)

// mcpsnoopVersion is the newest mcpsnoop baseline format [Baseline]
// reads.
const mcpsnoopVersion = 2

// mcpsnoopV1Unrecorded are the tool members a version 1 mcpsnoop baseline
// did not record.
var mcpsnoopV1Unrecorded = []string{"annotations", "icons", "outputSchema", "title"}

// Baseline converts one of mcpsnoop's trust-on-first-use tool
// baselines (<state>/tool-baselines/<hex>.json, format version 1 or 2:
// {"version":2,"server":"<label>","tools":[{"name","description",
// "input_schema","title","output_schema","annotations","icons"}]}) into an
// mcpward baseline. It is pure: the caller reads the file and writes the
// result with [baseline.Write].
//
// The Identity: mcpsnoop keyed a baseline by the server label alone, and
// its file records nothing else, so the result is Identity{Label: server}
// with Server and Endpoint empty. [baseline.Read] falls back to such a label-only
// baseline when none exists for a session's whole identity, so a session
// with that label is judged against it (as mcpsnoop judged it), whatever
// its serverInfo name and command line; the first `sessions baseline
// --accept` then records the whole identity beside it. The notes say so.
//
// Member mapping: input_schema → inputSchema, output_schema →
// outputSchema; null members, and an empty title or description (what
// mcpsnoop wrote for an absent one), are absent. A version 1 file recorded
// name, description and input schema only: the other members are listed
// in Unverified, so they are not compared (mcpsnoop's "not covered"), and
// a note says so. A tool member mcpsnoop never wrote is kept in Other and
// named in a note. A newer version, a file without a server label, a tool
// without a name, a duplicate tool or corrupt JSON is an error.
func Baseline(data []byte) (*baseline.Baseline, []string, error) {
	var f struct {
		Version *int                         `json:"version"`
		Server  *string                      `json:"server"`
		Tools   []map[string]json.RawMessage `json:"tools"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return nil, nil, fmt.Errorf("mcpsnoop tool baseline: %w", err)
	}
	if dec.More() {
		return nil, nil, errors.New("mcpsnoop tool baseline: data after the JSON object")
	}
	switch {
	case f.Version == nil:
		return nil, nil, errors.New("mcpsnoop tool baseline: no version")
	case *f.Version < 1 || *f.Version > mcpsnoopVersion:
		return nil, nil, fmt.Errorf("mcpsnoop tool baseline: version %d (this mcpward reads versions 1 and 2)", *f.Version)
	case f.Server == nil || *f.Server == "":
		return nil, nil, errors.New("mcpsnoop tool baseline: no server label")
	}
	label := *f.Server
	b := &baseline.Baseline{Version: baseline.FormatVersion, Identity: baseline.Identity{Label: label}, Source: "mcpsnoop tool baseline", Tools: []baseline.Tool{}}
	notes := []string{fmt.Sprintf("keyed by the label %q only (as mcpsnoop did): it applies to every session with that label until 'mcpward sessions baseline --accept' records a whole identity (label, serverInfo name, command line)", label)}
	if *f.Version == 1 {
		b.Unverified = slices.Clone(mcpsnoopV1Unrecorded)
		notes = append(notes, "version 1 baseline: title, outputSchema, annotations and icons were not recorded and are not compared (accept a session to cover them)")
	}
	unknown := map[string]bool{}
	for i, m := range f.Tools {
		var name string
		if err := json.Unmarshal(m["name"], &name); err != nil || name == "" {
			return nil, nil, fmt.Errorf("mcpsnoop tool baseline: tool %d has no name", i)
		}
		if slices.ContainsFunc(b.Tools, func(t baseline.Tool) bool { return t.Name == name }) {
			return nil, nil, fmt.Errorf("mcpsnoop tool baseline: tool %q is listed twice", name)
		}
		t := baseline.Tool{Name: name}
		for k, v := range m {
			v = present(v)
			if v == nil {
				continue
			}
			switch k {
			case "name":
			case "description":
				t.Description = nonEmptyString(v)
			case "title":
				t.Title = nonEmptyString(v)
			case "input_schema", "inputSchema", "schema":
				t.InputSchema = v
			case "output_schema", "outputSchema":
				t.OutputSchema = v
			case "annotations":
				t.Annotations = v
			case "icons":
				t.Icons = v
			default:
				if t.Other == nil {
					t.Other = map[string]json.RawMessage{}
				}
				t.Other[k] = v
				unknown[k] = true
			}
		}
		b.Tools = append(b.Tools, t)
	}
	slices.SortFunc(b.Tools, func(a, c baseline.Tool) int { return strings.Compare(a.Name, c.Name) })
	if len(unknown) > 0 {
		keys := make([]string, 0, len(unknown))
		for k := range unknown {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		notes = append(notes, "tool members mcpsnoop does not document, kept as they are: "+strings.Join(keys, ", "))
	}
	return b, notes, nil
}

// present returns v compacted, or nil for an absent or null member.
func present(v json.RawMessage) json.RawMessage {
	v = compact(v)
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	return v
}

// nonEmptyString returns v, or nil for the empty string mcpsnoop wrote
// for a member the tool did not have.
func nonEmptyString(v json.RawMessage) json.RawMessage {
	if string(v) == `""` {
		return nil
	}
	return v
}

// compact is v without insignificant white space (v itself when it is not
// valid JSON), as baseline compares members.
func compact(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}
