package hub

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mcpsnoop's state directory has the same sessions/ folder: with it as the
// state directory (mcpward ui --state-dir ~/.local/state/mcpsnoop), its
// logs are read as they are, and read back for the inspector.
func TestBackfillMcpsnoopLogs(t *testing.T) {
	noLeaks(t)
	dir := shortDir(t)
	var b strings.Builder
	b.WriteString(`{"session_id":"server.py-4242-0a1b2c3d4e5f","server_label":"server.py","seq":1,"ts":"2026-08-01T12:00:00Z","direction":"meta","transport":"stdio","raw":{"command":["python3","server.py"],"cwd":"/p"}}` + "\n")
	for i := 2; i <= 10; i++ {
		fmt.Fprintf(&b, `{"session_id":"server.py-4242-0a1b2c3d4e5f","server_label":"server.py","seq":%d,"ts":"2026-08-01T12:00:01Z","direction":"c2s","transport":"stdio","raw":{"jsonrpc":"2.0","id":%d,"method":"ping"}}`+"\n", i, i)
	}
	path := filepath.Join(dir, "sessions", "server.py-4242-0a1b2c3d4e5f.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHub(t, Options{StateDir: dir, Socket: NoSocket})
	s, ok := sessionByID(h, "server.py-4242-0a1b2c3d4e5f")
	if !ok || s.Records != 10 || s.Label != "server.py" || s.Log != path {
		t.Fatalf("session %+v (listed %v), want 10 records of server.py from %s", s, ok, path)
	}
	recs, err := readRange(path, "server.py-4242-0a1b2c3d4e5f", 5, 5, 10)
	if err != nil || len(recs) != 1 || string(recs[0].Frame) != `{"jsonrpc":"2.0","id":5,"method":"ping"}` {
		t.Errorf("readRange = %v, %v", recs, err)
	}
}
