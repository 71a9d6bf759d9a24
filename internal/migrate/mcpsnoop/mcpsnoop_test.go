package mcpsnoop

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/session"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The sample logs (written from the envelope described in
// reference/mcpsnoop.md §1.3) convert to the mcpward records in their
// golden files: every frame spliced back byte for byte, the meta record a
// start record, headers, exchanges and the members kept in info.
func TestGolden(t *testing.T) {
	logs, _ := filepath.Glob("testdata/*.jsonl")
	n := 0
	for _, path := range logs {
		if strings.HasSuffix(path, ".golden.jsonl") {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !Sniff(data) {
				t.Fatalf("Sniff(%s) = false", path)
			}
			var got []byte
			d := NewDecoder()
			for i, line := range bytes.Split(data, []byte("\n")) {
				if len(bytes.TrimSpace(line)) == 0 {
					continue
				}
				rec, err := d.Decode(line)
				if err != nil {
					got = fmt.Appendf(got, "# line %d: %v\n", i+1, err)
					continue
				}
				got = session.AppendRecord(got, rec)
			}
			golden := strings.TrimSuffix(path, ".jsonl") + ".golden.jsonl"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(string(want), string(got)); d != "" {
				t.Errorf("converted %s mismatch (-want +got):\n%s", path, d)
			}
		})
	}
	if n < 3 {
		t.Fatalf("found %d sample logs, want at least 3", n)
	}
}

// Every frame's bytes survive: a raw value is the exact slice of the line
// (invalid UTF-8 inside a string, "<", "&" and white space included), a
// text string is its decoded bytes.
func TestFrameBytesExact(t *testing.T) {
	head := `{"session_id":"s-1-000000000000","server_label":"s","seq":2,"ts":"2026-08-01T12:00:00Z","direction":"c2s","transport":"stdio",`
	tests := []struct {
		name, member string
		want         string
		rawFrame     bool
	}{
		{"raw object", `"raw":{"jsonrpc":"2.0","id":1,"method":"x","params":{"t":"a<b&c"}}`, `{"jsonrpc":"2.0","id":1,"method":"x","params":{"t":"a<b&c"}}`, true},
		{"raw with spaces", `"raw":{ "jsonrpc" : "2.0" , "method":"n" }`, `{ "jsonrpc" : "2.0" , "method":"n" }`, true},
		{"raw invalid UTF-8", "\"raw\":{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"t\":\"caf\xe9\xff\"}}", "{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"t\":\"caf\xe9\xff\"}}", true},
		{"raw escaped", `"raw":{"t":"\u003c\n"}`, `{"t":"\u003c\n"}`, true},
		{"raw batch array", `"raw":[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]`, `[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]`, true},
		{"raw base64", `"raw":"eyJqc29ucnBjIjoiMi4wIiwibWV0aG9kIjoibiIsInAiOiJj6SJ9"`, "{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"p\":\"c\xe9\"}", true},
		{"raw string not base64 JSON", `"raw":"aGVsbG8="`, `"aGVsbG8="`, true},
		{"raw string", `"raw":"hi there"`, `"hi there"`, true},
		{"text line", `"text":"not json \u003c\tx"`, "not json <\tx", false},
		{"text empty", `"text":""`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := NewDecoder().Decode([]byte(head + tt.member + "}"))
			if err != nil {
				t.Fatal(err)
			}
			if !rec.HasFrame || string(rec.Frame) != tt.want {
				t.Errorf("Frame = %q (HasFrame %v), want %q", rec.Frame, rec.HasFrame, tt.want)
			}
			if got := rec.RawFrame != nil; got != tt.rawFrame {
				t.Errorf("RawFrame set = %v, want %v", got, tt.rawFrame)
			}
			if rec.Size != int64(len(tt.want)) {
				t.Errorf("Size = %d, want %d", rec.Size, len(tt.want))
			}
			// Written by mcpward and read back: the same bytes.
			back, err := session.NewReader(bytes.NewReader(session.AppendRecord(nil, rec))).Next()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back.Frame, rec.Frame) {
				t.Errorf("frame after an mcpward round trip = %q, want %q", back.Frame, rec.Frame)
			}
		})
	}
}

// The members of a record map to mcpward's; the rest is kept in info.
func TestDecodeMembers(t *testing.T) {
	line := `{"session_id":"h-1-00ff00ff00ff","server_label":"127.0.0.1:8080","seq":7,"ts":"2026-08-02T09:30:01.5+02:00",` +
		`"direction":"c2s","transport":"http","raw":{"jsonrpc":"2.0","id":1,"method":"tools/call"},"mcp_method":"tools/call",` +
		`"mcp_name":"weather","mcp_protocol_version":"2026-07-28","mcp_param_headers":[{"name":"mcp-param-city","value":"[REDACTED]","redacted":true},{"name":"Mcp-Param-Unit","value":"c"}],` +
		`"batch":true,"conn_id":"127.0.0.1:5","truncated":false,"status":0,"auth_challenge":"","x_new":{"k":[1]}}`
	rec, err := NewDecoder().Decode([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := &session.Record{
		V: 1, Session: "h-1-00ff00ff00ff", Label: "127.0.0.1:8080", Seq: 7,
		Time: time.Date(2026, 8, 2, 7, 30, 1, 5e8, time.UTC), Dir: session.ClientToServer, Transport: session.HTTP,
		Frame: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`), HasFrame: true, Size: 46,
		RawFrame: json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`),
		Redacted: true, Exchange: 1, Method: "POST",
		Header: map[string][]string{"Mcp-Method": {"tools/call"}, "Mcp-Name": {"weather"}, "Mcp-Protocol-Version": {"2026-07-28"},
			"Mcp-Param-City": {"[REDACTED]"}, "Mcp-Param-Unit": {"c"}},
		Info: json.RawMessage(`{"mcpsnoop":{"batch":true,"conn_id":"127.0.0.1:5","x_new":{"k":[1]}}}`),
	}
	if d := cmp.Diff(want, rec, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); d != "" {
		t.Errorf("Decode mismatch (-want +got):\n%s", d)
	}
}

// The meta record becomes mcpward's start record (argv, cwd), which replay
// and the baselines read; any other meta payload a note.
func TestDecodeMeta(t *testing.T) {
	head := `{"session_id":"s-1-000000000000","server_label":"s","seq":1,"ts":"2026-08-01T12:00:00Z","direction":"meta","transport":"stdio",`
	tests := []struct {
		name, member, kind, info string
	}{
		{"start", `"raw":{"command":["uvx","srv","--a=&"],"cwd":"/p"}`, session.KindStart, `{"argv":["uvx","srv","--a=&"],"cwd":"/p"}`},
		{"start with more", `"raw":{"cwd":"/p","command":["x"],"env":{"A":"1"}},"x":1`, session.KindStart, `{"argv":["x"],"cwd":"/p","env":{"A":"1"},"mcpsnoop":{"x":1}}`},
		{"other payload", `"raw":{"hello":1}`, session.KindNote, `{"mcpsnoop":{"raw":{"hello":1}}}`},
		{"text", `"text":"x"`, session.KindNote, `{"mcpsnoop":{"text":"x"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := NewDecoder().Decode([]byte(head + tt.member + "}"))
			if err != nil {
				t.Fatal(err)
			}
			if rec.Kind != tt.kind || string(rec.Info) != tt.info || rec.HasFrame {
				t.Errorf("Kind %q Info %s HasFrame %v, want %q %s false", rec.Kind, rec.Info, rec.HasFrame, tt.kind, tt.info)
			}
			if !json.Valid(rec.Info) {
				t.Errorf("Info %s is not JSON", rec.Info)
			}
		})
	}
}

// HTTP records get the exchange of their connection: a request opens one,
// the elements of one batch share it, a response joins the current one.
func TestExchanges(t *testing.T) {
	rec := func(seq int, dir, conn string, batch bool) string {
		return fmt.Sprintf(`{"session_id":"h","seq":%d,"ts":"2026-08-01T12:00:00Z","direction":%q,"transport":"http","raw":{},"conn_id":%q,"batch":%v}`, seq, dir, conn, batch)
	}
	lines := []string{
		rec(1, "c2s", "a", false), // 1
		rec(2, "c2s", "b", false), // 2
		rec(3, "s2c", "a", false), // 1
		rec(4, "s2c", "b", false), // 2
		rec(5, "c2s", "a", true),  // 3
		rec(6, "c2s", "a", true),  // 3
		rec(7, "s2c", "a", true),  // 3
		rec(8, "c2s", "a", true),  // 4: a new batch after the response
		rec(9, "s2c", "z", false), // 0: no request on that connection
	}
	want := []uint64{1, 2, 1, 2, 3, 3, 3, 4, 0}
	d := NewDecoder()
	var got []uint64
	for _, l := range lines {
		r, err := d.Decode([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Exchange)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exchanges mismatch (-want +got):\n%s", diff)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ name, line, want string }{
		{"torn", `{"session_id":"s","seq":1,"ts":"2026-08-01T12:00:00Z","dire`, "not a JSON object"},
		{"not an object", `[1]`, "not a JSON object"},
		{"no session", `{"seq":1,"ts":"2026-08-01T12:00:00Z","direction":"c2s"}`, `missing "session_id"`},
		{"no seq", `{"session_id":"s","ts":"2026-08-01T12:00:00Z","direction":"c2s"}`, `missing "seq"`},
		{"no direction", `{"session_id":"s","seq":1,"ts":"2026-08-01T12:00:00Z"}`, `missing "direction"`},
		{"bad ts", `{"session_id":"s","seq":1,"ts":"yesterday","direction":"c2s"}`, `bad "ts"`},
		{"bad seq", `{"session_id":"s","seq":-1,"ts":"2026-08-01T12:00:00Z","direction":"c2s"}`, `"seq" is not a uint64`},
		{"bad text", `{"session_id":"s","seq":1,"ts":"2026-08-01T12:00:00Z","direction":"c2s","text":3}`, `"text" is not a string`},
		{"duplicate", `{"session_id":"s","session_id":"t","seq":1,"ts":"2026-08-01T12:00:00Z","direction":"c2s"}`, `duplicate member "session_id"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewDecoder().Decode([]byte(tt.line))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Decode(%s) error = %v, want %q", tt.line, err, tt.want)
			}
		})
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		head string
		want bool
	}{
		{`{"session_id":"a","seq":1}` + "\n", true},
		{"\n\n  " + `{"session_id":"a","seq":1,"raw":{"cut here`, true},
		{`{"session_id":"a-b-c","server_label":"x","seq":1,"ts":"2026-08-01T12:00:00Z","direction":"c2s","raw":{"jsonrpc":"2.0","params":{"t":"` + strings.Repeat("x", 100), true},
		{`{"v":1,"session":"01J","seq":1}` + "\n", false},
		{`{"v":1,"session_id":"x"}`, false},
		{"", false},
		{"garbage\n", false},
	}
	for _, tt := range tests {
		if got := Sniff([]byte(tt.head)); got != tt.want {
			t.Errorf("Sniff(%q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","seq":1,"ts":"2026-08-01T12:00:00Z","direction":"meta","raw":{"command":["a"],"cwd":"/"}}`))
	f.Add([]byte(`{"session_id":"s","seq":2,"ts":"2026-08-01T12:00:00Z","direction":"c2s","transport":"http","raw":{},"conn_id":"c","mcp_param_headers":[{"name":"x","value":"y"}]}`))
	f.Add([]byte("{\"session_id\":\"s\",\"seq\":2,\"ts\":\"2026-08-01T12:00:00Z\",\"direction\":\"c2s\",\"raw\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, line []byte) {
		rec, err := NewDecoder().Decode(line)
		if err != nil {
			return
		}
		if rec.Info != nil && !json.Valid(rec.Info) {
			t.Fatalf("Info %q is not JSON", rec.Info)
		}
		if rec.HasFrame && !bytes.Contains(line, rec.Frame) && rec.RawFrame != nil && !bytes.Equal(rec.Frame, rec.RawFrame) {
			t.Fatalf("frame %q is not from the line", rec.Frame)
		}
	})
}
