package cmdutil

import (
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
)

// TestTargetFlagsEntry: the flags build the entry a file would hold for
// the same server, so both resolve through connect.Resolve to the same
// Spec (the flags' --timeout replaces the entry's).
func TestTargetFlagsEntry(t *testing.T) {
	lookup := func(k string) (string, bool) { return map[string]string{"TOK": "s3cret"}[k], k == "TOK" }
	for _, tc := range []struct {
		name  string
		flags TargetFlags
		file  *config.Target
	}{
		{"command", TargetFlags{Command: []string{"node s.js --x"}, Env: []string{"B=2", "A=1", "B=3"}, Cwd: "srv", IsolateHome: true, Timeout: 3 * time.Second},
			&config.Target{Command: "node", Args: []string{"s.js", "--x"}, Env: map[string]string{"A": "1", "B": "3"}, Cwd: "srv", IsolateHome: true}},
		{"url", TargetFlags{URL: "http://127.0.0.1:1/mcp", SSE: true, Headers: []string{"Authorization=Bearer ${TOK}", "X-A: 1"}, Timeout: time.Second},
			&config.Target{URL: "http://127.0.0.1:1/mcp", SSE: true, Headers: map[string]string{"Authorization": "Bearer ${TOK}", "X-A": "1"}}},
		{"fixture", TargetFlags{Fixture: "clean@v1", FixtureHTTP: true, Timeout: time.Second},
			&config.Target{Fixture: "clean@v1", FixtureHTTP: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entry, err := tc.flags.Entry()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(entry, tc.file) {
				t.Errorf("Entry() = %+v, want %+v", entry, tc.file)
			}
			got, err := tc.flags.Spec("s", lookup)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := connect.Resolve("s", tc.file, &connect.Source{Lookup: lookup, Timeout: tc.flags.Timeout})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Spec() = %+v, want the file's %+v", got, want)
			}
		})
	}
}

// TestTargetFlagsRepeatedHeader: a header given twice keeps both values.
func TestTargetFlagsRepeatedHeader(t *testing.T) {
	tf := TargetFlags{URL: "http://127.0.0.1:1/", Headers: []string{"X-A=1", "X-A=2"}, Timeout: time.Second}
	s, err := tf.Spec("s", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (http.Header{"X-A": {"1, 2"}}); !reflect.DeepEqual(s.Headers, want) {
		t.Errorf("headers = %v, want %v", s.Headers, want)
	}
}

// TestTargetFlagsSpecErrors: an entry the flags got wrong is a FlagError
// (the CLI adds "run … --help").
func TestTargetFlagsSpecErrors(t *testing.T) {
	for _, tf := range []TargetFlags{
		{Fixture: "clean@v1", URL: "http://127.0.0.1:1/", Timeout: time.Second},
		{URL: "ftp://h/", Timeout: time.Second},
		{Command: []string{`node "unterminated`}, Timeout: time.Second},
		{URL: "http://127.0.0.1:1/", Headers: []string{"no-separator"}, Timeout: time.Second},
	} {
		_, err := tf.Spec("s", nil)
		var fe *FlagError
		if !errors.As(err, &fe) {
			t.Errorf("Spec(%+v) = %v, want a FlagError", tf, err)
		}
	}
}
