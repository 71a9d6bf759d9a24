package snapshot

import (
	"encoding/json"
	"testing"
)

func FuzzUnmarshal(f *testing.F) {
	s, _ := Build(cleanEvidence(), nil)
	good, _ := Marshal(s)
	f.Add(good)
	f.Add([]byte(`{"formatVersion":1}`))
	f.Add([]byte(`{"formatVersion":99}`))
	f.Add([]byte(`{"formatVersion":1e400}`))
	f.Add([]byte(`{"formatVersion":1,"surface":{"tools":[{"name":1}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Unmarshal(b)
		if err != nil {
			return
		}
		out, err := Marshal(s)
		if err != nil {
			return
		}
		if _, err := Unmarshal(out); err != nil {
			t.Fatalf("re-reading our own output failed: %v\n%s", err, out)
		}
	})
}

func FuzzBuild(f *testing.F) {
	f.Add([]byte(cleanDiscover), []byte(cleanTools), []byte(cleanPrompts), []byte(`{"content":[{"type":"text","text":"x"}]}`), cleanManifest)
	f.Add([]byte(`{}`), []byte(`{"tools":[1,{"name":""},{"name":"a","inputSchema":{"x-mcp-header":1}}]}`), []byte(`[]`), []byte(`7`), `{"tools":[]}`)
	f.Add([]byte(`{"ttlMs":1e999}`), []byte(`{"tools":[{"name":"a","n":1e999}]}`), []byte(`{"prompts":[{"name":"p","arguments":"x"}]}`), []byte(`null`), `{`)
	f.Fuzz(func(t *testing.T, discover, tools, prompts, result []byte, manifest string) {
		ev := &Evidence{
			Era:      EraModern,
			Discover: discover,
			Tools:    ListEvidence{Attempted: true, Pages: []json.RawMessage{tools, tools}},
			Prompts:  ListEvidence{Attempted: true, Pages: []json.RawMessage{prompts}},
			Manifest: &ManifestEvidence{URI: "x://mcp/manifest", Text: manifest},
			Probes:   []ProbeEvidence{{ID: "p", Result: result}, {ID: "q", Error: result, Capture: CaptureValues}},
			Stderr:   manifest,
		}
		s, err := Build(ev, &BuildOptions{Volatile: []string{"tools.*.description"}})
		if err != nil {
			return
		}
		b, err := Marshal(s)
		if err != nil {
			t.Fatalf("Marshal of a built snapshot failed: %v", err)
		}
		if _, err := Unmarshal(b); err != nil {
			t.Fatalf("Unmarshal of a built snapshot failed: %v\n%s", err, b)
		}
	})
}
