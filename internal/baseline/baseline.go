package baseline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/diff"
)

// FormatVersion is the version of the baseline file.
const FormatVersion = 1

// An Identity names the server a baseline belongs to.
type Identity struct {
	Label string `json:"label"`
	// Server is serverInfo.name ("" when the session never said).
	Server string `json:"server"`
	// Endpoint is the command line (stdio) or the upstream URL (HTTP).
	Endpoint string `json:"endpoint"`
}

// Key is the file name stem of the identity's baseline: the label (for
// people) and 16 hex digits of a hash over all three fields.
func (id Identity) Key() string {
	h := sha256.New()
	for _, f := range []string{id.Label, id.Server, id.Endpoint} {
		h.Write([]byte(strconv.Itoa(len(f)) + ":" + f))
	}
	label := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, id.Label)
	if len(label) > 64 {
		label = label[:64]
	}
	return label + "-" + hex.EncodeToString(h.Sum(nil))[:16]
}

// A Tool is one tool definition as the baseline keeps it: each field as
// compacted JSON, absent fields empty.
type Tool struct {
	Name         string          `json:"name"`
	Title        json.RawMessage `json:"title,omitempty"`
	Description  json.RawMessage `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Icons        json.RawMessage `json:"icons,omitempty"`
}

// A Baseline is the trusted tool list of one server identity.
type Baseline struct {
	Version  int      `json:"version"`
	Identity Identity `json:"identity"`
	// RecordedAt is when it was accepted (RFC 3339); Source names the log.
	RecordedAt string `json:"recordedAt,omitempty"`
	Source     string `json:"source,omitempty"`
	Tools      []Tool `json:"tools"`
}

// FromTools builds a baseline from raw tool definitions (a complete
// tools/list), sorted by name.
func FromTools(id Identity, defs []json.RawMessage) (*Baseline, error) {
	b := &Baseline{Version: FormatVersion, Identity: id, Tools: []Tool{}}
	for _, d := range defs {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(d, &raw); err != nil {
			return nil, fmt.Errorf("tool definition: %w", err)
		}
		var name string
		if err := json.Unmarshal(raw["name"], &name); err != nil {
			return nil, fmt.Errorf("tool definition without a string name: %s", trunc(d))
		}
		b.Tools = append(b.Tools, Tool{Name: name,
			Title: cmpct(raw["title"]), Description: cmpct(raw["description"]),
			InputSchema: cmpct(raw["inputSchema"]), OutputSchema: cmpct(raw["outputSchema"]),
			Annotations: cmpct(raw["annotations"]), Icons: cmpct(raw["icons"])})
	}
	slices.SortFunc(b.Tools, func(a, c Tool) int { return strings.Compare(a.Name, c.Name) })
	return b, nil
}

func trunc(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

func cmpct(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// canonical re-encodes JSON with sorted keys so that member order does not
// count as a change ("" for absent).
func canonical(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return string(raw)
	}
	return strings.TrimSpace(b.String())
}

// schema drops a top-level default 2020-12 $schema before comparing.
func schema(raw json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil && m != nil {
		if s, ok := m["$schema"]; ok {
			var d string
			if json.Unmarshal(s, &d) == nil && strings.TrimSuffix(d, "#") == "https://json-schema.org/draft/2020-12/schema" {
				delete(m, "$schema")
				b, _ := json.Marshal(m)
				return canonical(b)
			}
		}
	}
	return canonical(raw)
}

// hint reads an annotation hint through its spec default; a value that is
// not a boolean is kept as its JSON text.
func hint(ann json.RawMessage, name string, def bool) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(ann, &m) != nil {
		return strconv.FormatBool(def)
	}
	v, ok := m[name]
	if !ok || string(v) == "null" {
		return strconv.FormatBool(def)
	}
	return canonical(v)
}

// Compare reports the drift from old to new, one finding per (kind,
// tool), in the order tools, then kinds.
func Compare(old, new *Baseline) []diff.Finding {
	var out []diff.Finding
	oldBy := map[string]Tool{}
	for _, t := range old.Tools {
		oldBy[t.Name] = t
	}
	newBy := map[string]Tool{}
	for _, t := range new.Tools {
		newBy[t.Name] = t
	}
	names := map[string]bool{}
	for n := range oldBy {
		names[n] = true
	}
	for n := range newBy {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	slices.Sort(sorted)
	add := func(rule string, tier diff.Tier, tool, msg string, before, after any) {
		out = append(out, diff.Finding{RuleID: rule, Tier: tier, Subject: "tool " + strconv.Quote(tool), Message: msg, Before: before, After: after})
	}
	for _, n := range sorted {
		o, inOld := oldBy[n]
		w, inNew := newBy[n]
		switch {
		case !inOld:
			add("tool.added", diff.Risky, n, "tool is not in the baseline", nil, nil)
			continue
		case !inNew:
			add("tool.removed", diff.Breaking, n, "tool in the baseline is no longer listed", nil, nil)
			continue
		}
		if canonical(o.Description) != canonical(w.Description) {
			add("tool.description.changed", diff.Risky, n, "description changed since the baseline — the trigger surface a model routes on", raw(o.Description), raw(w.Description))
		}
		if canonical(o.Title) != canonical(w.Title) {
			add("tool.title.changed", diff.Risky, n, "title changed since the baseline", raw(o.Title), raw(w.Title))
		}
		if schema(o.InputSchema) != schema(w.InputSchema) {
			add("tool.input.schema.changed", diff.Risky, n, "inputSchema changed since the baseline", nil, nil)
		}
		switch os, ns := schema(o.OutputSchema), schema(w.OutputSchema); {
		case os == ns:
		case os == "":
			add("tool.output.schema.added", diff.Compatible, n, "an outputSchema appeared", nil, nil)
		case ns == "":
			add("tool.output.schema.removed", diff.Breaking, n, "the outputSchema disappeared", nil, nil)
		default:
			add("tool.output.schema.changed", diff.Risky, n, "outputSchema changed since the baseline", nil, nil)
		}
		out = append(out, annotations(n, o.Annotations, w.Annotations)...)
		if canonical(o.Icons) != canonical(w.Icons) {
			add("tool.icons.changed", diff.Cosmetic, n, "icons changed since the baseline", nil, nil)
		}
	}
	return out
}

func raw(r json.RawMessage) any {
	if len(r) == 0 {
		return nil
	}
	return r
}

// annotations compares the four hints through their defaults
// (readOnly=false, destructive=true, idempotent=false, openWorld=true) and
// any other annotation member as a whole.
func annotations(tool string, o, w json.RawMessage) []diff.Finding {
	var out []diff.Finding
	subject := "tool " + strconv.Quote(tool)
	type hintRule struct {
		name      string
		def       bool
		toTrue    string
		toTrueT   diff.Tier
		fromTrue  string
		fromTrueT diff.Tier
	}
	for _, h := range []hintRule{
		{"readOnlyHint", false, "annotation.readOnlyHint.relaxed", diff.Risky, "annotation.readOnlyHint.revoked", diff.Breaking},
		{"destructiveHint", true, "annotation.destructiveHint.raised", diff.Breaking, "annotation.destructiveHint.relaxed", diff.Risky},
		{"idempotentHint", false, "annotation.idempotentHint.relaxed", diff.Risky, "annotation.idempotentHint.revoked", diff.Breaking},
		{"openWorldHint", true, "annotation.openWorldHint.raised", diff.Risky, "annotation.openWorldHint.lowered", diff.Compatible},
	} {
		a, b := hint(o, h.name, h.def), hint(w, h.name, h.def)
		switch {
		case a == b:
		case b == "true":
			out = append(out, diff.Finding{RuleID: h.toTrue, Tier: h.toTrueT, Subject: subject, Message: h.name + " became true since the baseline", Before: a, After: b})
		case a == "true":
			out = append(out, diff.Finding{RuleID: h.fromTrue, Tier: h.fromTrueT, Subject: subject, Message: h.name + " is no longer true since the baseline", Before: a, After: b})
		default:
			out = append(out, diff.Finding{RuleID: "annotation.other.changed", Tier: diff.Cosmetic, Subject: subject, Message: h.name + " changed since the baseline", Before: a, After: b})
		}
	}
	rest := func(r json.RawMessage) string {
		var m map[string]json.RawMessage
		if json.Unmarshal(r, &m) != nil {
			return canonical(r)
		}
		for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
			delete(m, k)
		}
		if len(m) == 0 {
			return ""
		}
		b, _ := json.Marshal(m)
		return canonical(b)
	}
	if rest(o) != rest(w) {
		out = append(out, diff.Finding{RuleID: "annotation.other.changed", Tier: diff.Cosmetic, Subject: subject, Message: "another annotation changed since the baseline"})
	}
	return out
}

// ErrNotFound means no baseline exists for the identity yet.
var ErrNotFound = errors.New("no baseline")

// Path is the baseline file of id in dir.
func Path(dir string, id Identity) string { return filepath.Join(dir, id.Key()+".json") }

// Read loads the baseline of id from dir. A file of a newer version, for
// another identity, or not JSON is an error (not ErrNotFound).
func Read(dir string, id Identity) (*Baseline, error) {
	p := Path(dir, id)
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w for %s", ErrNotFound, p)
	}
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", p, err)
	}
	switch {
	case b.Version > FormatVersion:
		return nil, fmt.Errorf("read baseline %s: format version %d is newer than this mcpward reads (%d)", p, b.Version, FormatVersion)
	case b.Identity != id:
		return nil, fmt.Errorf("read baseline %s: it records another server (%s, %s, %s)", p, b.Identity.Label, b.Identity.Server, b.Identity.Endpoint)
	}
	return &b, nil
}

// Write stores b atomically (mode 0600, directory 0700).
func Write(dir string, b *Baseline) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	return atomicfile.Write(Path(dir, b.Identity), append(data, '\n'), 0o600)
}

// Remove deletes the baseline of id; a missing file is not an error.
func Remove(dir string, id Identity) error {
	if err := os.Remove(Path(dir, id)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove baseline: %w", err)
	}
	return nil
}
