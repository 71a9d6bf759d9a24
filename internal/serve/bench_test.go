package serve

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSessionExport measures GET /api/sessions/{id}, what the
// session page fetches (again, at most once a second, while the session
// is live), for a session of 5000 records.
func BenchmarkSessionExport(b *testing.B) {
	e := newEnv(b)
	var log strings.Builder
	for i := 1; i <= 5000; i += 2 {
		log.WriteString(`{"v":1,"session":"big","label":"big","seq":` + itoa(i) + `,"ts":"2026-08-01T12:00:00Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"Paris"}}}}` + "\n")
		log.WriteString(`{"v":1,"session":"big","label":"big","seq":` + itoa(i+1) + `,"ts":"2026-08-01T12:00:00.010Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":` + itoa(i) + `,"result":{"content":[{"type":"text","text":"sunny, 21 degrees"}]}}}` + "\n")
	}
	writeFile(b, filepath.Join(e.sessions, "big-1-ffff.jsonl"), log.String())
	h := e.startHub(b, false)
	srv, _ := start(b, &Options{Version: "bench", Hub: h})
	var n int64
	b.ResetTimer()
	for b.Loop() {
		resp, err := http.Get(srv.URL + "/api/sessions/big")
		if err != nil {
			b.Fatal(err)
		}
		n, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	b.ReportMetric(float64(n), "bytes/op")
}
