package sessionexport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
)

func record(sess string, seq uint64, dir session.Direction, frame string) *session.Record {
	return &session.Record{V: 1, Session: sess, Label: "demo", Seq: seq, Dir: dir,
		Time:  time.Date(2026, 8, 1, 12, 0, 0, int(seq)*int(time.Millisecond), time.UTC),
		Frame: []byte(frame), RawFrame: json.RawMessage(frame), HasFrame: true}
}

// TestExporterJSON feeds records without any file: the document keeps
// each frame's bytes, names the source by its base name, and lists (and
// warns about) the lines the reader skipped.
func TestExporterJSON(t *testing.T) {
	var out, warn bytes.Buffer
	x, err := New(&out, &Options{Format: "json", Version: "test", Log: "/logs/run.jsonl", Warn: &warn})
	if err != nil {
		t.Fatal(err)
	}
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`
	x.Add(record("S1", 1, session.ClientToServer, req), 1)
	x.Add(record("S1", 2, session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`), 2)
	if err := x.Finish([]session.LineError{{Line: 3, Err: errors.New("corrupt")}}, 4); err != nil {
		t.Fatal(err)
	}
	doc := out.String()
	for _, want := range []string{`"format":"` + FormatName + `"`, `"source":"run.jsonl"`, req, "3 more lines skipped"} {
		if !strings.Contains(doc, want) {
			t.Errorf("document lacks %s:\n%s", want, doc)
		}
	}
	if !strings.HasPrefix(warn.String(), "mcpward: warning: /logs/run.jsonl: line 3") || strings.Count(warn.String(), "\n") != 2 {
		t.Errorf("warnings:\n%s", warn.String())
	}
}

func TestExporterErrors(t *testing.T) {
	if _, err := New(&bytes.Buffer{}, &Options{Format: "pdf"}); err == nil {
		t.Error("New accepted format pdf")
	}
	if err := CheckFormat("pdf"); err == nil || !strings.Contains(err.Error(), "json, html, text, har, otlp") {
		t.Errorf("CheckFormat(pdf) = %v", err)
	}
	x, err := New(&bytes.Buffer{}, &Options{Format: "text", SessionID: "NOPE", Log: "run.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	x.Add(record("S1", 1, session.Stderr, "hello"), 1)
	if err := x.Finish(nil, 0); !errors.Is(err, fault.ErrInput) {
		t.Errorf("Finish with an unknown session = %v, want an input error", err)
	}
}

// batchLog exports a session whose client sends one JSON-RPC batch of n
// requests and whose server answers it with one batch, in format.
func batchExportSize(t *testing.T, format string, n int) int {
	t.Helper()
	var req, resp strings.Builder
	req.WriteByte('[')
	resp.WriteByte('[')
	for i := range n {
		if i > 0 {
			req.WriteByte(',')
			resp.WriteByte(',')
		}
		fmt.Fprintf(&req, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"element %d"}}}`, i, i)
		fmt.Fprintf(&resp, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"element %d"}]}}`, i, i)
	}
	req.WriteByte(']')
	resp.WriteByte(']')
	var out bytes.Buffer
	x, err := New(&out, &Options{Format: format, Version: "test", Log: "batch.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	x.Add(record("S1", 1, session.ClientToServer, req.String()), 1)
	x.Add(record("S1", 2, session.ServerToClient, resp.String()), 2)
	if err := x.Finish(nil, 0); err != nil {
		t.Fatal(err)
	}
	return out.Len()
}

// A batch of n elements was written n times over, once per element (a
// 219 KB log gave 1.1 GB of JSON or HTML): the export of a batch 8 times
// larger must be about 8 times larger, not 64.
func TestExportLinearInBatchSize(t *testing.T) {
	for _, format := range []string{"json", "html", "text", "har", "otlp"} {
		small, big := batchExportSize(t, format, 100), batchExportSize(t, format, 800)
		if ratio := float64(big) / float64(small); ratio > 12 {
			t.Errorf("%s: %d bytes for a batch of 100, %d for 800 (×%.1f): not linear", format, small, big, ratio)
		}
	}
}

// TestExportRedactsIssue26Shapes: sessions export --redact-secrets of a log
// recorded without redaction hides what the proxies hide when they record:
// the Mcp-Session-Id (one pseudonym in the field and the header copy), a
// query's code and signature in the path, and a password a pretty-printer
// put on the stderr line after its name (issue 26 item 6).
func TestExportRedactsIssue26Shapes(t *testing.T) {
	red, err := redact.New(redact.Config{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "text", "har", "html"} {
		var out bytes.Buffer
		x, err := New(&out, &Options{Format: format, Version: "test", Log: "run.jsonl", Redactor: red})
		if err != nil {
			t.Fatal(err)
		}
		req := record("S1", 1, session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		req.Transport, req.Method, req.Path, req.Exchange = session.HTTP, "POST", "/mcp?code=code-s3cret&sig=sig-s3cret&x=1", 1
		req.MCPSessionID, req.Header = "sid-s3cret", map[string][]string{"Mcp-Session-Id": {"sid-s3cret"}}
		resp := record("S1", 2, session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		resp.Transport, resp.Status, resp.Exchange = session.HTTP, 200, 1
		resp.MCPSessionID, resp.Header = "sid-s3cret", map[string][]string{"Mcp-Session-Id": {"sid-s3cret"}}
		x.Add(req, 1)
		x.Add(resp, 2)
		for i, line := range []string{`config {`, `  "password":`, `     "split-s3cret"`, `}`} {
			x.Add(record("S1", uint64(3+i), session.Stderr, line), 3+i)
		}
		if err := x.Finish(nil, 0); err != nil {
			t.Fatal(err)
		}
		if doc := out.String(); strings.Contains(doc, "s3cret") || !strings.Contains(doc, "[REDACTED") {
			t.Errorf("-f %s holds a secret (or no placeholder):\n%s", format, doc)
		}
	}
}
