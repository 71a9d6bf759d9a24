package migrate

import (
	"testing"
)

// FuzzClassifyFile: any name and content is classified as one of the
// kinds or as nothing, never a panic, and a kind follows from the bytes
// the same way twice.
func FuzzClassifyFile(f *testing.F) {
	f.Add("snapgauge.config.json", []byte(`{"targets":{}}`))
	f.Add(".mcpsnoop.toml", []byte("[redact]\n"))
	f.Add("s.jsonl", []byte(`{"session_id":"a","seq":1,"direction":"c2s","raw":{}}`+"\n"))
	f.Add("r.json", []byte(`{"command":"check","findings":[],"exitCode":0}`))
	f.Add(".snapgauge/x.snapshot.json", []byte(`{"tools":{},"discover":{}}`))
	f.Add("x.json", []byte(`{"schemaVersion":1,"tools":[]}`))
	f.Add("claude_desktop_config.json", []byte(`{"mcpServers":{"s":{"command":"mcpsnoop","args":["--","srv"]}}}`))
	f.Add("x.json", []byte("\xff{"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		k := ClassifyFile(name, data)
		if again := ClassifyFile(name, data); again != k {
			t.Fatalf("ClassifyFile(%q) = %q then %q", name, k, again)
		}
	})
}
