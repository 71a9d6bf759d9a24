package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/result"
)

var cases = []string{"seed", "clean", "incomplete", "violations", "hostile"}

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFormats(t *testing.T) {
	want := []string{"text", "json", "md", "github", "sarif", "junit"}
	if d := cmp.Diff(want, FormatNames("report")); d != "" {
		t.Errorf("FormatNames(report) mismatch (-want +got):\n%s", d)
	}
	r, err := ReadResult(read(t, "seed"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range want {
		w, ok := Lookup(name)
		if !ok {
			t.Errorf("Lookup(%q) not found", name)
			continue
		}
		var a, b bytes.Buffer
		if err := w(&a, r); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if err := w(&b, r); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two renderings differ", name)
		}
		if a.Len() == 0 || !bytes.HasSuffix(a.Bytes(), []byte("\n")) {
			t.Errorf("%s: output is empty or lacks a final newline", name)
		}
	}
	if _, ok := Lookup("html"); ok {
		t.Error(`Lookup("html") found a format`)
	}
}

// TestJSONRoundTrip checks that the json format writes a Result that reads
// back equal, and that writing it again gives the same bytes.
func TestJSONRoundTrip(t *testing.T) {
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			r, err := ReadResult(read(t, name))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := JSON(&out, r); err != nil {
				t.Fatal(err)
			}
			back, err := ReadResult(out.Bytes())
			if err != nil {
				t.Fatalf("re-read: %v\n%s", err, out.Bytes())
			}
			if d := cmp.Diff(r, back, compactRaw); d != "" {
				t.Errorf("round trip mismatch (-want +got):\n%s", d)
			}
			var again bytes.Buffer
			if err := JSON(&again, back); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), again.Bytes()) {
				t.Error("JSON is not stable across a round trip")
			}
		})
	}
}

// compactRaw compares raw JSON by its tokens: encoding/json re-indents a
// json.RawMessage (whitespace only; token bytes are kept).
var compactRaw = cmp.Transformer("compact", func(m json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, m); err != nil {
		return string(m)
	}
	return b.String()
})

func TestJSONShape(t *testing.T) {
	var out bytes.Buffer
	r := &result.Result{SchemaVersion: 1, Tool: "mcpward", Command: "diff",
		Findings: nil, Evidence: result.Evidence{Problems: []string{"<b>&"}}}
	if err := JSON(&out, r); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"{\n  \"schemaVersion\": 1,\n", "\"findings\": [],", "\"<b>&\"", "}\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("JSON lacks %q:\n%s", want, s)
		}
	}
	if r.Findings != nil {
		t.Error("JSON modified the Result")
	}
}

func TestReadResultErrors(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		notRes  bool
		newer   bool
		wantMsg string
	}{
		{"empty", ``, true, false, "not a mcpward result"},
		{"not json", `hello`, true, false, "not a mcpward result"},
		{"array", `[1,2]`, true, false, "not a mcpward result"},
		{"null", `null`, true, false, "not a mcpward result"},
		{"snapshot", `{"formatVersion":1,"surface":{}}`, true, false, `"tool": "mcpward"`},
		{"other tool", `{"tool":"snapgauge","schemaVersion":1,"command":"check"}`, true, false, "not a mcpward result"},
		{"no version", `{"tool":"mcpward","command":"check"}`, true, false, "schemaVersion"},
		{"string version", `{"tool":"mcpward","schemaVersion":"1","command":"check"}`, true, false, "positive integer"},
		{"zero version", `{"tool":"mcpward","schemaVersion":0,"command":"check"}`, true, false, "positive integer"},
		{"newer", `{"tool":"mcpward","schemaVersion":7,"command":"check","future":true}`, false, true, "schemaVersion 7 is newer than this mcpward reads (1)"},
		{"unknown field", `{"tool":"mcpward","schemaVersion":1,"command":"check","extra":1}`, false, false, `unknown field "extra"`},
		{"bad tier", `{"tool":"mcpward","schemaVersion":1,"command":"check","findings":[{"ruleId":"x","tier":"fatal","subject":"s","message":"m"}]}`, false, false, "unknown tier"},
		{"numeric tier", `{"tool":"mcpward","schemaVersion":1,"command":"check","findings":[{"ruleId":"x","tier":3,"subject":"s","message":"m"}]}`, false, false, "invalid mcpward result"},
		{"trailing", `{"tool":"mcpward","schemaVersion":1,"command":"check"} {}`, true, false, "after top-level value"},
		{"no command", `{"tool":"mcpward","schemaVersion":1}`, false, false, "no command"},
		{"bad exit", `{"tool":"mcpward","schemaVersion":1,"command":"check","exitCode":42}`, false, false, "exitCode 42"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadResult([]byte(tt.in))
			if err == nil {
				t.Fatal("ReadResult succeeded")
			}
			if !errors.Is(err, fault.ErrInput) {
				t.Errorf("error %q is not fault.ErrInput", err)
			}
			if got := errors.Is(err, ErrNotResult); got != tt.notRes {
				t.Errorf("errors.Is(ErrNotResult) = %v, want %v (%v)", got, tt.notRes, err)
			}
			var ne *NewerSchemaError
			if got := errors.As(err, &ne); got != tt.newer {
				t.Errorf("errors.As(NewerSchemaError) = %v, want %v", got, tt.newer)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not contain %q", err, tt.wantMsg)
			}
		})
	}
}

// FuzzReadResult checks that no input panics the reader, and that whatever
// it accepts every format renders, and the json format writes back to a
// Result the reader accepts again.
func FuzzReadResult(f *testing.F) {
	for _, name := range cases {
		b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"tool":"mcpward","schemaVersion":1,"command":"x","findings":null,"violations":[{"class":"z"}]}`))
	f.Add([]byte(`{"tool":"mcpward","schemaVersion":1e400}`))
	f.Add([]byte("{\"tool\":\"mcpward\",\"schemaVersion\":1,\"command\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadResult(data)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("error not marked fault.Input: %v", err)
			}
			return
		}
		for _, name := range FormatNames("report") {
			w, _ := Lookup(name)
			if err := w(&bytes.Buffer{}, r); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		var out bytes.Buffer
		if err := JSON(&out, r); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadResult(out.Bytes()); err != nil {
			t.Fatalf("json output not readable: %v\n%s", err, out.Bytes())
		}
	})
}
