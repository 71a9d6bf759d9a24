package diff

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpward/mcpward/internal/snapshot"
)

// TestTreeEqualIsDeepEqual: treeEqual answers as reflect.DeepEqual does
// for every kind a tree holds, and for values that are not tree kinds.
func TestTreeEqualIsDeepEqual(t *testing.T) {
	vals := []any{
		nil, "", "a", "b", true, false, json.Number("1"), json.Number("1.0"), 1.0, 1,
		map[string]any(nil), map[string]any{}, map[string]any{"a": "b"}, map[string]any{"a": "c"},
		map[string]any{"a": nil}, map[string]any{"b": nil}, map[string]any{"a": []any{}}, map[string]any{"a": []any(nil)},
		[]any(nil), []any{}, []any{"a"}, []any{json.Number("1")}, []any{"a", map[string]any{"x": true}},
		[]any{"a", map[string]any{"x": false}}, []string{"a"}, map[string]string{"a": "b"},
	}
	for i, a := range vals {
		for j, b := range vals {
			if got, want := treeEqual(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("treeEqual(vals[%d], vals[%d]) = %v, want %v (%#v, %#v)", i, j, got, want, a, b)
			}
		}
	}
}

// TestDiffOfUnchangedToolsAllocates: diffing two snapshots whose tools
// are equal (decoded separately, as from two files) does not walk their
// schemas. It allocated 33 times per tool before (genSnapshot tools).
func TestDiffOfUnchangedToolsAllocates(t *testing.T) {
	decode := func() *snapshot.Snapshot {
		b, err := json.Marshal(genSnapshot(200, 0))
		if err != nil {
			t.Fatal(err)
		}
		var s snapshot.Snapshot
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		return &s
	}
	old, cur := decode(), decode()
	if f := Diff(old, cur); len(f) != 0 {
		t.Fatalf("Diff() of equal snapshots = %v", f)
	}
	allocs := testing.AllocsPerRun(3, func() { Diff(old, cur) })
	if perTool := allocs / 200; perTool > 10 {
		t.Errorf("Diff() of 200 unchanged tools: %.0f allocations, %.1f per tool; want at most 10", allocs, perTool)
	}
}
