package wrap

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the after-wrap and error sections of testdata/*/*.txtar")

var testEnv = Env{GOOS: "linux", Home: "/home/u", Cwd: "/home/u/proj"}

// TestGolden runs every testdata/<client>/*.txtar: "params" (client,
// scope, server, flags, crlf), "before", and the expected "after-wrap" or
// "error". Beyond the golden output it checks that wrapping again is a
// no-op, that unwrap splices the entry back byte for byte, that unwrap with
// the backup restores it, and that unwrapping an unwrapped entry is a
// no-op.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(strings.TrimPrefix(file, "testdata/"), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string][]byte{}
			for _, f := range ar.Files {
				sec[f.Name] = f.Data
			}
			params := map[string]string{}
			for line := range strings.SplitSeq(string(sec["params"]), "\n") {
				if k, v, ok := strings.Cut(line, ":"); ok {
					params[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
			client := filepath.Base(filepath.Dir(file))
			_, target, err := Locate(client, params["scope"], "", testEnv)
			if err != nil {
				t.Fatal(err)
			}
			crlf := func(b []byte) []byte {
				if params["crlf"] == "true" {
					return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
				}
				return b
			}
			before := crlf(sec["before"])
			spec := Spec{Mcpward: "/usr/local/bin/mcpward", Flags: strings.Fields(params["flags"])}
			server := params["server"]
			got, err := Wrap(before, target, server, spec)
			if err != nil {
				checkSection(t, file, ar, "error", []byte(err.Error()+"\n"))
				return
			}
			if params["crlf"] == "true" {
				if bytes.Count(got, []byte("\n")) != bytes.Count(got, []byte("\r\n")) {
					t.Errorf("wrapped file mixes line endings:\n%q", got)
				}
				got = bytes.ReplaceAll(got, []byte("\r\n"), []byte("\n"))
			}
			checkSection(t, file, ar, "after-wrap", got)
			after := crlf(sec["after-wrap"])
			if params["jsonc"] != "true" && !json.Valid(after) {
				t.Errorf("after-wrap is not valid JSON")
			}
			if again, err := Wrap(after, target, server, spec); !errors.Is(err, ErrAlreadyWrapped) || !bytes.Equal(again, after) {
				t.Errorf("Wrap(wrapped) error = %v, changed %v; want ErrAlreadyWrapped, unchanged", err, !bytes.Equal(again, after))
			}
			un, restored, err := Unwrap(after, nil, target, server)
			if err != nil || restored {
				t.Fatalf("Unwrap() = restored %v, %v", restored, err)
			}
			if params["splice"] == "semantic" {
				// An empty args array cannot be told from none once
				// wrapped: the splice drops it, the backup restores it.
				var a, b any
				if json.Unmarshal(before, &a) != nil || json.Unmarshal(un, &b) != nil {
					t.Fatalf("not JSON")
				}
				if d := cmp.Diff(a, b, cmpEmptyArgs); d != "" {
					t.Errorf("Unwrap() splice differs (-before +unwrapped):\n%s", d)
				}
			} else if d := cmp.Diff(string(before), string(un)); d != "" {
				t.Errorf("Unwrap() splice is not byte-identical (-before +unwrapped):\n%s", d)
			}
			un, restored, err = Unwrap(after, before, target, server)
			if err != nil || !restored || !bytes.Equal(un, before) {
				t.Errorf("Unwrap(with backup) = restored %v, %v; want the backup", restored, err)
			}
			if _, _, err := Unwrap(before, nil, target, server); !errors.Is(err, ErrNotWrapped) {
				t.Errorf("Unwrap(unwrapped) error = %v, want ErrNotWrapped", err)
			}
		})
	}
}

// cmpEmptyArgs treats "args": [] as absent.
var cmpEmptyArgs = cmp.Transformer("dropEmptyArgs", func(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if a, ok := v.([]any); ok && k == "args" && len(a) == 0 {
			continue
		}
		out[k] = v
	}
	return out
})

func checkSection(t *testing.T, file string, ar *txtar.Archive, name string, got []byte) {
	t.Helper()
	for i := range ar.Files {
		if ar.Files[i].Name != name {
			continue
		}
		if *update {
			ar.Files[i].Data = got
			if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		if d := cmp.Diff(string(ar.Files[i].Data), string(got)); d != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", name, d)
		}
		return
	}
	if *update {
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: got})
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("no %q section; got:\n%s", name, got)
}
