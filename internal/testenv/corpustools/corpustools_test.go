package corpustools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestToolsReadsTheCache seeds the cache at the current key: Tools returns
// its tools and starts no server (none is installed in this test's view:
// the tools are made up).
func TestToolsReadsTheCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MCPWARD_CORPUS_CACHE", dir)
	key, err := Key()
	if err != nil {
		t.Fatal(err)
	}
	want := []Tool{
		{Package: "a@1", Tool: "x", Def: json.RawMessage(`{"inputSchema":{"maximum":1.50,"type":"object"},"name":"x"}`)},
		{Package: "b@2", Tool: "y", Def: json.RawMessage(`{"name":"y"}`)},
	}
	file := filepath.Join(dir, "corpus-tools-"+key+".jsonl")
	if err := writeCache(file, want); err != nil {
		t.Fatal(err)
	}
	got := Tools(t)
	if !slices.EqualFunc(got, want, func(a, b Tool) bool {
		return a.Package == b.Package && a.Tool == b.Tool && string(a.Def) == string(b.Def)
	}) {
		t.Fatalf("Tools = %+v, want the cached %+v", got, want)
	}
	obj, err := got[0].Object()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := obj["inputSchema"].(map[string]any)["maximum"].(json.Number); n != "1.50" {
		t.Errorf("Object keeps numbers as written: maximum = %v, want 1.50", obj["inputSchema"])
	}
}

// TestCacheRejectsDamage: a damaged or empty cache file is not read (Tools
// lists the servers again instead).
func TestCacheRejectsDamage(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"empty":     "",
		"truncated": `{"package":"a@1","tool":"x","def":{"name":`,
		"no def":    `{"package":"a@1","tool":"x"}` + "\n",
	} {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if tools, err := readCache(f); err == nil {
			t.Errorf("%s: readCache = %v, want an error", name, tools)
		}
	}
}
