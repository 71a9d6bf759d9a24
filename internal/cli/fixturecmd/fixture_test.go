package fixturecmd

import (
	"encoding/json"
	"fmt"
	"testing"
	"unicode"

	"github.com/mcpward/mcpward/internal/iostreams"
)

// TestListJSONKeys pins issue 13 item 9: `fixture list --json` uses
// lowerCamel keys at every depth, like every other JSON output (a probe's
// arguments are the tool's own and are not checked).
func TestListJSONKeys(t *testing.T) {
	ios, _, stdout, _ := iostreams.Test()
	if err := listRun(&ListOptions{IO: ios, Format: "json"}); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("output is not a JSON array of objects: %v", err)
	}
	if len(got) == 0 {
		t.Fatal("no fixtures listed")
	}
	for _, k := range []string{"name", "description", "era", "versions", "httpOnly", "probes"} {
		if _, ok := got[0][k]; !ok {
			t.Errorf("fixture object has no %q key: %v", k, got[0])
		}
	}
	var check func(path string, v any)
	check = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if k == "" || !unicode.IsLower([]rune(k)[0]) {
					t.Errorf("key %q at %s is not lowerCamel", k, path)
				}
				if k == "arguments" {
					continue
				}
				check(path+"."+k, e)
			}
		case []any:
			for _, e := range v {
				check(path+"[]", e)
			}
		}
	}
	for _, f := range got {
		check(fmt.Sprint(f["name"]), f)
	}
}
