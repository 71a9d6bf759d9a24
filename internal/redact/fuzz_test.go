package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzFrame checks that Frame never panics, keeps valid JSON valid,
// returns the input slice itself when it reports no change, and hides
// every value under a key it was told to hide.
func FuzzFrame(f *testing.F) {
	for _, c := range corpus {
		f.Add([]byte(c))
	}
	for _, c := range []string{
		``, `"`, `{`, `[`, `{"a":}`, `"\u12"`, `"\ud800"`, `"\ud83d\ude00 password=x"`, `{"password":"\ud800\udc00"}`,
		`{"t":"x\u00e9sk-abcdefghijklmnopqrstuvwxyz"}`, "data: {\"token\":1}\r\n", `[["--token"],"x"]`, `1e999`, `-0.0e-0`,
		`{"result":{"tools":[{"name":"t","inputSchema":{"properties":{"p":{"format":"password"}}}}]}}`,
		strings.Repeat("[", 20000), `{"a":"\"token\": \"x\""}`, "\xff\xfe{\"password\":\"x\"}",
		// Issue 26 item 6: escaped JSON, split values, query names.
		`{"t":"{\"cfg\":\"{\\\"api_key\\\":\\\"x\\\"}\"}"}`, `p={\"password\":\"x\\\"`, "\"token\":\n  \"x\"",
		`{"u":"/cb?code=x&sig=\\"}`, `"\\\\\"password\\\\\":\\\"`,
	} {
		f.Add([]byte(c))
	}
	r := mustNew(f, Config{Secrets: true, Keys: []string{"k"}, Values: []string{`v\d+`}, Paths: []string{"$..p", "a[*].b"}})
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		out, changed := r.Frame(in)
		if !bytes.Equal(in, orig) {
			t.Fatalf("Frame modified its input")
		}
		if !changed {
			if len(in) > 0 && &out[0] != &in[0] {
				t.Fatalf("unchanged frame returned as a copy")
			}
			return
		}
		if json.Valid(in) {
			if !json.Valid(out) {
				t.Fatalf("valid JSON became invalid:\n in: %q\nout: %q", in, out)
			}
			// Redacting again finds nothing new under the key rule.
			var v any
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatal(err)
			}
			checkKeys(t, v, out)
		}
	})
}

// FuzzLines checks that Lines, fed a text line by line, never panics,
// never changes its input, keeps each valid JSON line valid, and returns a
// line itself when it reports no change.
func FuzzLines(f *testing.F) {
	for _, c := range []string{
		"cfg {\n  \"password\":\n    \"hunter2\"\n}", "\"k\":\n{\"a\":1}\n", "token:\n\\\"x\\\"\r\n", "k:\n\"\n", "k:\n\\\\",
		"\"k\" :\n  [1,\n2]", "password:\n'x\n",
	} {
		f.Add([]byte(c))
	}
	r := mustNew(f, Config{Secrets: true, Keys: []string{"k"}})
	f.Fuzz(func(t *testing.T, in []byte) {
		l := r.Lines()
		for _, line := range bytes.SplitAfter(in, []byte("\n")) {
			orig := bytes.Clone(line)
			out, changed := l.Frame(line)
			if !bytes.Equal(line, orig) {
				t.Fatalf("Frame modified its input")
			}
			if !changed {
				if len(line) > 0 && &out[0] != &line[0] {
					t.Fatalf("unchanged line returned as a copy")
				}
				continue
			}
			if json.Valid(line) && !json.Valid(out) {
				t.Fatalf("valid JSON became invalid:\n in: %q\nout: %q", line, out)
			}
		}
	})
}

// checkKeys fails if a member named k holds anything but the placeholder,
// null, "", or a boolean.
func checkKeys(t *testing.T, v any, out []byte) {
	switch v := v.(type) {
	case map[string]any:
		for name, x := range v {
			if strings.EqualFold(name, "k") {
				switch x := x.(type) {
				case nil, bool:
				case string:
					if x != "" && x != Placeholder {
						t.Fatalf("member %q kept %q in %q", name, x, out)
					}
				default:
					t.Fatalf("member %q kept %v in %q", name, x, out)
				}
				continue
			}
			checkKeys(t, x, out)
		}
	case []any:
		for _, x := range v {
			checkKeys(t, x, out)
		}
	}
}

// FuzzParsePath checks the path parser never panics and that what it
// accepts selects something.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"a.b", "$..x", "a[*]", "a['b']", "[0]", "..", "a[", "a['", "$", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parsePath(s)
		if err == nil && len(p) == 0 {
			t.Fatalf("parsePath(%q) accepted an empty path", s)
		}
	})
}
