package baseline

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func tools(t *testing.T, defs ...string) *Baseline {
	t.Helper()
	var raws []json.RawMessage
	for _, d := range defs {
		raws = append(raws, json.RawMessage(d))
	}
	b, err := FromTools(Identity{Label: "demo", Server: "srv", Endpoint: "srv --stdio"}, raws)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name     string
		old, new []string
		want     []string
	}{
		{"same, member order and whitespace ignored",
			[]string{`{"name":"a","description":"x","inputSchema":{"type":"object","properties":{}}}`},
			[]string{`{"inputSchema":{"properties":{},"type":"object"}, "name":"a","description":"x"}`}, nil},
		{"absent hints equal their defaults",
			[]string{`{"name":"a","inputSchema":{"type":"object"}}`},
			[]string{`{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":true,"openWorldHint":true}}`}, nil},
		{"added, removed, description",
			[]string{`{"name":"a","description":"x","inputSchema":{}}`, `{"name":"b","inputSchema":{}}`},
			[]string{`{"name":"a","description":"y","inputSchema":{}}`, `{"name":"c","inputSchema":{}}`},
			[]string{"tool.description.changed a", "tool.removed b", "tool.added c"}},
		{"hints through defaults",
			[]string{`{"name":"a","inputSchema":{},"annotations":{"readOnlyHint":true}}`},
			[]string{`{"name":"a","inputSchema":{},"annotations":{"destructiveHint":false}}`},
			[]string{"annotation.readOnlyHint.revoked a", "annotation.destructiveHint.relaxed a"}},
		{"default $schema ignored, output schema added, icons",
			[]string{`{"name":"a","inputSchema":{"type":"object"}}`},
			[]string{`{"name":"a","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"},"outputSchema":{},"icons":[{"src":"x"}]}`},
			[]string{"tool.output.schema.added a", "tool.icons.changed a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Compare(tools(t, tt.old...), tools(t, tt.new...)) {
				got = append(got, f.RuleID+" "+f.Subject[6:len(f.Subject)-1])
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Compare() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestStoreKeyedByIdentity(t *testing.T) {
	dir := t.TempDir()
	a := tools(t, `{"name":"a","inputSchema":{}}`)
	if _, err := Read(dir, a.Identity); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Read before Write: %v, want ErrNotFound", err)
	}
	if err := Write(dir, a); err != nil {
		t.Fatal(err)
	}
	other := a.Identity
	other.Endpoint = "other --stdio" // same label, another server
	if _, err := Read(dir, other); !errors.Is(err, ErrNotFound) {
		t.Errorf("same label, other endpoint: %v, want ErrNotFound", err)
	}
	got, err := Read(dir, a.Identity)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(a, got); d != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", d)
	}
	if err := Remove(dir, a.Identity); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir, a.Identity); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}
