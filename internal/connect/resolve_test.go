package connect

import (
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/fault"
)

var errFlag = errors.New("flag error")

func markFlag(err error) error { return errors.Join(errFlag, err) }

func lookupOf(kv ...string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1], true
			}
		}
		return "", false
	}
}

// TestResolve: an entry becomes its Spec the same way whether a file or
// the flags named it; only the errors' names and the literal-credential
// warning depend on the source.
func TestResolve(t *testing.T) {
	entry := &config.Target{
		Command: "node", Args: []string{"s.js"}, Env: map[string]string{"B": "2", "A": "1"},
		Cwd: "srv", Home: "/abs", IsolateHome: true, TimeoutMs: 1500,
	}
	want := &Spec{Name: "s", Command: []string{"node", "s.js"}, Env: []string{"A=1", "B=2"}, Cwd: "/cfg/srv", Home: "/abs", IsolateHome: true, Timeout: 1500 * time.Millisecond}
	got, warnings, err := Resolve("s", entry, &Source{Dir: "/cfg"})
	if err != nil || len(warnings) != 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("Resolve(file) = %+v, %v, %v; want %+v", got, warnings, err, want)
	}
	want.Cwd, want.Timeout = "srv", 3*time.Second
	got, _, err = Resolve("s", entry, &Source{Flags: markFlag, Timeout: 3 * time.Second})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Resolve(flags) = %+v, %v; want %+v", got, err, want)
	}

	for _, tc := range []struct {
		name    string
		src     Source
		timeout time.Duration
	}{
		{"entry's", Source{DefaultTimeout: time.Second}, 1500 * time.Millisecond},
		{"replaced", Source{Timeout: time.Second, DefaultTimeout: 2 * time.Second}, time.Second},
	} {
		if got, _, _ := Resolve("s", entry, &tc.src); got.Timeout != tc.timeout {
			t.Errorf("%s timeout = %s, want %s", tc.name, got.Timeout, tc.timeout)
		}
	}
	if got, _, _ := Resolve("f", &config.Target{Fixture: "clean@v1"}, &Source{DefaultTimeout: 2 * time.Second}); got.Timeout != 2*time.Second {
		t.Errorf("default timeout = %s, want 2s", got.Timeout)
	}
}

func TestResolveHeaders(t *testing.T) {
	entry := &config.Target{URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": "Bearer ${TOK}", "X-Key": "literal"}}
	got, warnings, err := Resolve("w", entry, &Source{Lookup: lookupOf("TOK", "s3cret")})
	if err != nil {
		t.Fatal(err)
	}
	if want := (http.Header{"Authorization": {"Bearer s3cret"}, "X-Key": {"literal"}}); !reflect.DeepEqual(got.Headers, want) {
		t.Errorf("headers = %v, want %v", got.Headers, want)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "targets.w.headers.X-Key holds a literal credential") {
		t.Errorf("warnings = %q, want the literal X-Key", warnings)
	}
	if _, warnings, _ := Resolve("w", entry, &Source{Lookup: lookupOf("TOK", "x"), Flags: markFlag}); len(warnings) != 0 {
		t.Errorf("flags warnings = %q, want none (the user typed it)", warnings)
	}

	_, _, err = Resolve("w", entry, &Source{})
	if !errors.Is(err, fault.ErrInput) || !strings.HasPrefix(err.Error(), "targets.w.headers.Authorization: ") {
		t.Errorf("file, unset variable: %v; want an input error naming targets.w.headers.Authorization", err)
	}
	_, _, err = Resolve("w", entry, &Source{Flags: markFlag})
	if err == nil || !strings.HasPrefix(err.Error(), "--header Authorization: ") {
		t.Errorf("flags, unset variable: %v; want an error naming --header Authorization", err)
	}
}

func TestResolveInvalid(t *testing.T) {
	two := &config.Target{Fixture: "clean@v1", URL: "http://127.0.0.1:1/"}
	_, _, err := Resolve("x", two, &Source{})
	if !errors.Is(err, fault.ErrInput) || !strings.HasPrefix(err.Error(), "targets.x: more than one target") {
		t.Errorf("file: %v; want an input error under targets.x", err)
	}
	_, _, err = Resolve("x", two, &Source{Flags: markFlag})
	if !errors.Is(err, errFlag) || !strings.HasPrefix(err.Error(), "flag error\nmore than one target") {
		t.Errorf("flags: %v; want the error marked by Source.Flags", err)
	}
	if _, _, err := Resolve("x", &config.Target{URL: "ftp://h/"}, &Source{}); err == nil || !strings.Contains(err.Error(), "is not an http(s) URL") {
		t.Errorf("ftp URL: %v", err)
	}
}
