package uicmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/testenv"
)

// TestMain re-runs the test binary as an embedded fixture over stdio when
// MCPWARD_UI_TEST_SERVE names one, so a recorded session has a real
// server to be replayed against.
func TestMain(m *testing.M) {
	testenv.NoRaceExitPause()
	if name := os.Getenv("MCPWARD_UI_TEST_SERVE"); name != "" {
		fx, err := fixture.Lookup(name)
		if err != nil {
			os.Exit(9)
		}
		code, _ := fx.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// The replay overlay re-sends a recorded request to a fresh copy of the
// recorded server and shows the new answer.
func TestLogReplayer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	state := t.TempDir()
	logs := filepath.Join(state, "sessions")
	if err := os.MkdirAll(logs, 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(logs, "replay-01TEST.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	log := proxy.NewLog(f, &proxy.LogOptions{Session: "01TEST", Label: "replay"})
	req := `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n"
	var out bytes.Buffer
	_, err = proxy.RunStdio(ctx, &proxy.StdioOptions{
		Command:  []string{exe, "-test.run=^$"},
		Env:      append(os.Environ(), "MCPWARD_UI_TEST_SERVE=clean@v1"),
		Stdin:    strings.NewReader(req),
		Stdout:   &out,
		Stderr:   &bytes.Buffer{},
		Recorder: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	h, err := hub.New(ctx, hub.Options{StateDir: state, Socket: hub.NoSocket})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	recs, err := h.Records("01TEST", 0, 1<<62)
	if err != nil {
		t.Fatal(err)
	}
	var rec *session.Record
	for _, r := range recs {
		if r.Dir == session.ClientToServer {
			rec = r
		}
	}
	if rec == nil {
		t.Fatalf("the hub did not read the request from the log (sessions %+v)", h.Sessions())
	}
	// Environment values are never recorded: the replayed server gets
	// this process's environment, which now names the fixture.
	t.Setenv("MCPWARD_UI_TEST_SERVE", "clean@v1")
	res, err := logReplayer{logOf: hubLogs(h), version: "test", environ: os.Environ}.Replay(ctx, rec, nil)
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

func TestLogExporterWritesHTML(t *testing.T) {
	state := t.TempDir()
	logs := filepath.Join(state, "sessions")
	os.MkdirAll(logs, 0o700)
	log := `{"v":1,"session":"01EXP","label":"x","seq":1,"ts":"2026-08-01T12:00:00Z","dir":"c2s","transport":"stdio","size":40,"frame":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}` + "\n" +
		`{"v":1,"session":"01EXP","label":"x","seq":2,"ts":"2026-08-01T12:00:01Z","dir":"s2c","transport":"stdio","size":42,"frame":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}` + "\n"
	if err := os.WriteFile(filepath.Join(logs, "x-01EXP.jsonl"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h, err := hub.New(ctx, hub.Options{StateDir: state, Socket: hub.NoSocket})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	out := filepath.Join(t.TempDir(), "s.html")
	if err := (logExporter{logOf: hubLogs(h), version: "test"}).Export("01EXP", "html", out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(b, []byte("<html")) || !bytes.Contains(b, []byte("tools/list")) {
		t.Errorf("export = %d bytes, %v; want an HTML page naming tools/list", len(b), err)
	}
	if err := (logExporter{logOf: hubLogs(h)}).Export("01EXP", "pdf", out); err == nil {
		t.Error("an unknown format was accepted")
	}
}
