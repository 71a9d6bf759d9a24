package wrap

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzWrap checks that wrapping any file never panics, that a wrapped
// JSON file is still JSON, and that unwrapping gives the entry back.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{
		cfg, `{"mcpServers":{"s":{"command":"x"}}}`, `{"mcpServers":{"s":{"command":"x","args":[],}}}`,
		"{\"mcpServers\":{\"s\":{\"command\":\"x\",\"args\":[\n \"a\" // c\n]}}}", `{"mcpServers":{"s":{"url":"u"}}}`,
		`{"mcpServers":{"s":{"command":"\ud800","args":["\u00e9"]}}}`, `{/*`, `[`, `{"mcpServers":{"s":1}}`,
		`{"mcpServers":{"s":{"command":"/b/mcpsnoop","args":["--label","l","--","srv","-x"]}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		out, err := Wrap(doc, desktop, "s", Spec{Mcpward: "/m/mcpward", Flags: []string{"--label", "x"}})
		if err != nil {
			if !bytes.Equal(out, doc) {
				t.Fatalf("failed Wrap changed the document")
			}
			return
		}
		if json.Valid(doc) && !json.Valid(out) {
			t.Fatalf("valid JSON became invalid:\n%q\n%q", doc, out)
		}
		if _, err := Wrap(out, desktop, "s", Spec{Mcpward: "/m/mcpward"}); !errors.Is(err, ErrAlreadyWrapped) {
			t.Fatalf("Wrap(wrapped) = %v", err)
		}
		un, _, err := Unwrap(out, nil, desktop, "s")
		if err != nil {
			t.Fatalf("Unwrap(wrapped) = %v", err)
		}
		e1, err1 := find(doc, desktop, "s")
		e2, err2 := find(un, desktop, "s")
		if err1 != nil || err2 != nil {
			t.Fatalf("unwrap did not give the entry back:\n%q\n%q", doc, un)
		}
		want := append([]string{e1.cmd}, e1.argv...)
		if s, ok := e1.mcpsnoop(); ok {
			want = s.Orig // wrap replaced mcpsnoop: unwrap gives the server
		}
		if got := append([]string{e2.cmd}, e2.argv...); len(got) != len(want) || got[0] != want[0] {
			t.Fatalf("unwrap did not give the entry back:\n%q\n%q", doc, un)
		}
	})
}
