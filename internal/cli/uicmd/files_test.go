package uicmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/session"
)

// snoopLog is an mcpsnoop session log (reference/mcpsnoop.md §1.3) of one
// tools/list call, whose meta line names argv as the recorded command.
func snoopLog(t *testing.T, argv []string, cwd string) []byte {
	t.Helper()
	cmd, _ := json.Marshal(argv)
	dir, _ := json.Marshal(cwd)
	line := func(seq int, dir, rest string) string {
		return fmt.Sprintf(`{"session_id":"srv-4242-0a1b2c3d4e5f","server_label":"srv","seq":%d,"ts":"2026-08-01T12:00:0%dZ","direction":%q,"transport":"stdio",%s}`+"\n", seq, seq, dir, rest)
	}
	return []byte(line(1, "meta", `"raw":{"command":`+string(cmd)+`,"cwd":`+string(dir)+`}`) +
		line(2, "c2s", `"raw":{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`) +
		line(3, "s2c", `"raw":{"jsonrpc":"2.0","id":5,"result":{"tools":[]}}`))
}

// `mcpward ui FILE…` reads mcpsnoop's logs and mcpward's alike: every
// session, named after its file; a session found in two files is shown
// once; bad lines are warned about; a file with no record is an error.
func TestOpenFiles(t *testing.T) {
	dir := t.TempDir()
	snoop := filepath.Join(dir, "srv-4242-0a1b2c3d4e5f.jsonl")
	if err := os.WriteFile(snoop, append(snoopLog(t, []string{"srv"}, "/"), `{"session_id":"srv-4242`...), 0o600); err != nil {
		t.Fatal(err)
	}
	ward := filepath.Join(dir, "x-01EXP.jsonl")
	rec := session.AppendRecord(nil, &session.Record{Session: "01EXP", Label: "x", Seq: 1, Time: time.Date(2026, 8, 2, 0, 0, 0, 0, time.UTC),
		Dir: session.ClientToServer, Transport: session.Stdio, Frame: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), HasFrame: true})
	if err := os.WriteFile(ward, rec, 0o600); err != nil {
		t.Fatal(err)
	}
	copyOf := filepath.Join(dir, "copy.jsonl")
	if err := os.WriteFile(copyOf, rec, 0o600); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	src, err := openFiles([]string{snoop, ward, copyOf}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	infos := src.Sessions()
	if len(infos) != 2 || infos[0].ID != "srv-4242-0a1b2c3d4e5f" || infos[0].Log != snoop || infos[0].Records != 3 ||
		infos[1].ID != "01EXP" || infos[1].Log != ward || infos[1].Records != 1 {
		t.Errorf("Sessions() = %+v", infos)
	}
	recs, _ := src.Records("srv-4242-0a1b2c3d4e5f", 0, 0)
	if len(recs) != 3 || recs[0].Kind != session.KindStart || string(recs[2].Frame) != `{"jsonrpc":"2.0","id":5,"result":{"tools":[]}}` {
		t.Errorf("Records() = %d records", len(recs))
	}
	for _, w := range []string{"line 4: torn last line skipped", "session 01EXP was read from " + ward + " already; skipped"} {
		if !strings.Contains(warn.String(), w) {
			t.Errorf("warnings %q lack %q", warn.String(), w)
		}
	}
	if err := src.Delete("01EXP"); err == nil {
		t.Error("Delete() of a session opened from a file succeeded")
	}
	if _, err := os.Stat(ward); err != nil {
		t.Errorf("the file is gone: %v", err)
	}

	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, []byte("\n"), 0o600)
	if _, err := openFiles([]string{empty}, &warn); !errors.Is(err, fault.ErrInput) {
		t.Errorf("openFiles(empty) error = %v, want an input error", err)
	}
}

// The replay overlay works on a session read from an mcpsnoop log: its
// meta line is the command replay starts.
func TestReplayFromMcpsnoopFile(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	exe, _ := os.Executable()
	path := filepath.Join(dir, "snoop.jsonl")
	if err := os.WriteFile(path, snoopLog(t, []string{exe, "-test.run=^$"}, dir), 0o600); err != nil {
		t.Fatal(err)
	}
	src, err := openFiles([]string{path}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := src.Records("srv-4242-0a1b2c3d4e5f", 2, 2)
	if len(recs) != 1 {
		t.Fatalf("no request record")
	}
	t.Setenv("MCPWARD_UI_TEST_SERVE", "clean@v1")
	res, err := logReplayer{logOf: src.logOf, version: "test", environ: os.Environ}.Replay(ctx, recs[0], nil)
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	var got struct {
		ID     int `json:"id"`
		Result struct {
			Tools []struct{ Name string } `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(res.Response, &got); err != nil || got.ID != 5 || len(got.Result.Tools) != 3 {
		t.Errorf("replayed response = %s (%v), want the three clean@v1 tools for id 5", res.Response, err)
	}
}
