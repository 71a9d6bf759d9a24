package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/serve"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/sessionlog"
	"github.com/mcpward/mcpward/internal/tui/store"
)

// countsLog is one stdio session: a start record, 9 wire frames (one of
// them an error response that matches no request), a stderr line and an
// exit record. Its error signal is 4: two JSON-RPC errors to calls, an
// isError result and the unmatched error response.
const countsLog = `{"v":1,"session":"S1","label":"demo","seq":1,"ts":"2026-08-01T12:00:00.000Z","dir":"meta","transport":"stdio","kind":"start","info":{"argv":["demo-server"]}}
{"v":1,"session":"S1","label":"demo","seq":2,"ts":"2026-08-01T12:00:00.010Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rm"}}}
{"v":1,"session":"S1","label":"demo","seq":3,"ts":"2026-08-01T12:00:00.020Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown file"}}}
{"v":1,"session":"S1","label":"demo","seq":4,"ts":"2026-08-01T12:00:00.030Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"cat"}}}
{"v":1,"session":"S1","label":"demo","seq":5,"ts":"2026-08-01T12:00:00.040Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"no such file"}],"isError":true}}}
{"v":1,"session":"S1","label":"demo","seq":6,"ts":"2026-08-01T12:00:00.050Z","dir":"stderr","transport":"stdio","frame":"server: cat failed"}
{"v":1,"session":"S1","label":"demo","seq":7,"ts":"2026-08-01T12:00:00.060Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"cat"}}}
{"v":1,"session":"S1","label":"demo","seq":8,"ts":"2026-08-01T12:00:00.070Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hello"}]}}}
{"v":1,"session":"S1","label":"demo","seq":9,"ts":"2026-08-01T12:00:00.080Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"rm"}}}
{"v":1,"session":"S1","label":"demo","seq":10,"ts":"2026-08-01T12:00:00.090Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"unknown file"}}}
{"v":1,"session":"S1","label":"demo","seq":11,"ts":"2026-08-01T12:00:00.100Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":99,"error":{"code":-32603,"message":"internal"}}}
{"v":1,"session":"S1","label":"demo","seq":12,"ts":"2026-08-01T12:00:00.110Z","dir":"meta","transport":"stdio","kind":"exit","info":{"code":0}}
`

// TestOneCountEverySurface reads the frames and errors of one log from
// every surface that shows them (issue 22 item 5: the TUI counted every
// record as a frame and serve the hub's JSON-RPC errors only, 36 vs 38
// frames and 5 vs 2 errors for one session): all say 9 frames and 4
// errors, counted in one place (calls.Session).
func TestOneCountEverySurface(t *testing.T) {
	const wantFrames, wantErrors = 9, 4
	state := t.TempDir()
	dir := session.Layout{Root: state}.Sessions()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "demo-S1.jsonl")
	if err := os.WriteFile(log, []byte(countsLog), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		ios, _, out, stderr := iostreams.Test()
		f := testFactory(ios)
		f.LookupEnv = func(k string) (string, bool) { return state, k == "MCPWARD_HOME" }
		if code := Run(f, args); code != 0 && code != 1 && code != 3 {
			t.Fatalf("mcpward %v: exit %d\n%s", args, code, stderr)
		}
		return out.String()
	}
	type got struct{ frames, errors int64 }
	surfaces := map[string]got{}
	number := func(surface, text, pattern string) {
		t.Helper()
		m := regexp.MustCompile(pattern).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("%s: no match for %s in:\n%s", surface, pattern, text)
		}
		var g got
		fmt.Sscan(m[1], &g.frames)
		fmt.Sscan(m[2], &g.errors)
		surfaces[surface] = g
	}

	// sessions list (tab-separated: … frames calls errors file).
	number("sessions list", run("sessions", "list"), `\t(\d+)\t\d+\t(\d+)\t`)
	var list []struct {
		Session struct{ Frames, Errors int64 }
	}
	if err := json.Unmarshal([]byte(run("sessions", "list", "--json")), &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions list --json: %v %d", err, len(list))
	}
	surfaces["sessions list --json"] = got{list[0].Session.Frames, list[0].Session.Errors}
	// sessions check: the session line, and the verdict's failed calls.
	chk := run("sessions", "check", log)
	number("sessions check", chk, `(\d+) frames, \d+ calls, (\d+) errors`)
	number("sessions check verdict", chk, `()-> 1 MUST violation, (\d+) failed calls`)
	surfaces["sessions check verdict"] = got{wantFrames, surfaces["sessions check verdict"].errors}
	// exports.
	number("export json", run("sessions", "export", log, "-T", "json"), `"frames":(\d+),"calls":\d+,"errors":(\d+)`)
	number("export html", run("sessions", "export", log, "-T", "html"), `"frames":(\d+),"calls":\d+,"errors":(\d+)`)
	txt := run("sessions", "export", log, "-T", "text")
	number("export text", txt, `errors \d+, frames (\d+)()`)
	number("export text errors", txt, `()calls \d+, errors (\d+)`)
	surfaces["export text"] = got{surfaces["export text"].frames, surfaces["export text errors"].errors}
	delete(surfaces, "export text errors")
	number("export otlp", run("sessions", "export", log, "-T", "otlp"),
		`"mcpward.session.frames","value":\{"intValue":"(\d+)"\}\},\{"key":"mcpward.session.errors","value":\{"intValue":"(\d+)"\}`)
	number("export har", run("sessions", "export", log, "-T", "har"), `"comment": ?"(\d+) frames, \d+ calls, (\d+) errors"`)

	// The TUI's store, over the log's records.
	st := store.New(store.Options{})
	var recs []*session.Record
	if _, _, err := sessionlog.Read(log, func(r *session.Record, _ int) { recs = append(recs, r) }); err != nil {
		t.Fatal(err)
	}
	st.Ingest(recs)
	ss := st.Session("S1")
	surfaces["ui"] = got{ss.Frames, ss.Errors}

	// serve's session list, over a hub that read the log.
	h, err := hub.New(context.Background(), hub.Options{StateDir: state, Socket: hub.NoSocket})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	app, err := serve.New(&serve.Options{Hub: h})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	srv := httptest.NewServer(app)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/sessions")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var api struct {
		Sessions []struct{ Frames, Errors int64 }
	}
	if err := json.Unmarshal(body, &api); err != nil || len(api.Sessions) != 1 {
		t.Fatalf("serve /api/sessions: %v\n%s", err, body)
	}
	surfaces["serve"] = got{api.Sessions[0].Frames, api.Sessions[0].Errors}

	for name, g := range surfaces {
		if g.frames != wantFrames || g.errors != wantErrors {
			t.Errorf("%s: %d frames, %d errors; want %d, %d", name, g.frames, g.errors, wantFrames, wantErrors)
		}
	}
	if len(surfaces) < 11 {
		t.Errorf("read %d surfaces: %v", len(surfaces), surfaces)
	}
	if strings.Contains(chk, "DRIFT") {
		t.Errorf("sessions check says DRIFT:\n%s", chk)
	}
}
