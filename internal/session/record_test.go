package session

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 7, 28, 12, 0, 0, 123456789, time.UTC)

func TestAppendRecordFrameEncoding(t *testing.T) {
	tests := []struct {
		name   string
		frame  string
		member string // the frame member the writer must choose
	}{
		{"json object spliced verbatim", `{"jsonrpc":"2.0","id":1,"method":"x","params":{"a" : [1, 2]}}`, `"frame":{"jsonrpc":"2.0","id":1,"method":"x","params":{"a" : [1, 2]}}`},
		{"no html escaping", `{"s":"<b>&amp;</b>"}`, `"frame":{"s":"<b>&amp;</b>"}`},
		{"json with trailing CR", "{\"a\":1}\r", `"frameText":"{\"a\":1}\r"`},
		{"json with leading space", ` {"a":1}`, `"frameText":" {\"a\":1}"`},
		{"not json", `hello "world"`, `"frameText":"hello \"world\""`},
		{"control bytes", "a\x00b\x1fc\td", `"frameText":"a\u0000b\u001fc\td"`},
		{"invalid utf-8", "\xff\xfe{", `"frameBase64":"//57"`},
		// Valid JSON, but a JSON string cannot hold these bytes: spliced,
		// they made the log line invalid UTF-8 (json.Valid does not check).
		{"json with invalid utf-8 in a string", "{\"s\":\"caf\xe9\"}", `"frameBase64":"eyJzIjoiY2Fm6SJ9"`},
		{"json with invalid utf-8 in a key", "{\"\xff\":1}", `"frameBase64":"eyL/IjoxfQ=="`},
		{"json with a surrogate encoded in utf-8", "[\"\xed\xa0\x80\"]", `"frameBase64":"WyLtoIAiXQ=="`},
		{"json with valid multi-byte text", `{"s":"日本語 déjà €"}`, `"frame":{"s":"日本語 déjà €"}`},
		{"empty line", "", `"frameText":""`},
		{"json scalar", `42`, `"frame":42`},
		{"unicode separators", "{\"a\":\"\u2028\"}", "\"frame\":{\"a\":\"\u2028\"}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &Record{Session: "S", Label: "L", Seq: 3, Time: t0, Dir: ClientToServer, Transport: Stdio, Frame: []byte(tt.frame), HasFrame: true}
			line := AppendRecord(nil, rec)
			if !bytes.HasSuffix(line, []byte("}\n")) || bytes.Count(line, []byte("\n")) != 1 {
				t.Fatalf("AppendRecord() = %q, want one line", line)
			}
			if !bytes.Contains(line, []byte(tt.member)) {
				t.Errorf("AppendRecord() = %s\nwant it to contain %s", line, tt.member)
			}
			if !json.Valid(line) || !utf8.Valid(line) {
				t.Fatalf("AppendRecord() = %q is not valid JSON in UTF-8", line)
			}
			got, err := NewReader(bytes.NewReader(line)).Next()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Frame, []byte(tt.frame)) {
				t.Errorf("round trip Frame = %q, want %q", got.Frame, tt.frame)
			}
		})
	}
}

func roundTripRecords() []*Record {
	return []*Record{
		{Session: "01ABC", Label: "srv", Seq: 1, Time: t0, Dir: Meta, Transport: Stdio, Kind: KindStart, Info: json.RawMessage(`{"argv":["x"],"cwd":"/"}`)},
		{Session: "01ABC", Label: "srv", Seq: 2, Time: t0, Dir: ClientToServer, Transport: HTTP, Exchange: 7, Method: "POST", Path: "/mcp?x=1",
			MCPSessionID: "s-1", Header: map[string][]string{"Mcp-Method": {"tools/call"}, "Mcp-Param-Region": {"eu", "us"}},
			Frame: []byte(`{"jsonrpc":"2.0","id":1}`), HasFrame: true, Size: 24},
		{Session: "01ABC", Label: "srv", Seq: 3, Time: t0, Dir: ServerToClient, Transport: HTTP, Exchange: 7, Status: 401,
			AuthChallenge: `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`},
		{Session: "01ABC", Label: "srv", Seq: 4, Time: t0, Dir: ServerToClient, Transport: HTTP, Exchange: 8, Status: 200, SSE: true, SSEEvent: "message", SSEID: "e1",
			Frame: []byte(`{"jsonrpc":"2.0","id":2,"result":{}}`), HasFrame: true, Size: 37},
		{Session: "01ABC", Label: "srv", Seq: 5, Time: t0, Dir: Stderr, Transport: Stdio, Frame: []byte("partial"), HasFrame: true, NoEOL: true, Size: 7},
		{Session: "01ABC", Label: "srv", Seq: 6, Time: t0, Dir: ServerToClient, Transport: Stdio, Frame: []byte(`{"a":`), HasFrame: true, Truncated: true, Size: 1 << 30},
		{Session: "01ABC", Label: "srv", Seq: 7, Time: t0, Dir: Meta, Transport: Stdio, Kind: KindLost, Error: "disk full", Info: json.RawMessage(`{"frames":3}`)},
		// A redacted frame longer than it travelled keeps its original size.
		{Session: "01ABC", Label: "srv", Seq: 8, Time: t0, Dir: ClientToServer, Transport: Stdio, Frame: []byte(`{"k":"[REDACTED]"}`), HasFrame: true, Size: 9, Redacted: true},
	}
}

func TestRecordRoundTrip(t *testing.T) {
	in := roundTripRecords()
	var buf []byte
	for _, r := range in {
		buf = AppendRecord(buf, r)
	}
	rd := NewReader(bytes.NewReader(buf))
	var got []*Record
	for {
		r, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	for _, r := range in {
		r.V = Version
		if r.HasFrame && json.Valid(r.Frame) {
			r.RawFrame = r.Frame
		}
	}
	if d := cmp.Diff(in, got); d != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", d)
	}
	if len(rd.Problems()) != 0 {
		t.Errorf("Problems() = %v, want none", rd.Problems())
	}
	if !bytes.Contains(buf, []byte(`"redacted":true,"size":9,"frame":{"k":"[REDACTED]"}`)) {
		t.Errorf("redacted record not written as documented:\n%s", buf)
	}
}

// An old log has no "redacted" member: it reads as not redacted.
func TestReaderOldRecordNotRedacted(t *testing.T) {
	line := `{"v":1,"session":"s","label":"l","seq":1,"ts":"2026-01-02T03:04:05Z","dir":"c2s","transport":"stdio","size":2,"frame":{}}` + "\n"
	r, err := NewReader(strings.NewReader(line)).Next()
	if err != nil {
		t.Fatal(err)
	}
	if r.Redacted || r.Size != 2 {
		t.Errorf("Redacted = %v, Size = %d; want false, 2", r.Redacted, r.Size)
	}
}

func TestReaderSkipsBadLines(t *testing.T) {
	good := func(seq uint64) string {
		return string(AppendRecord(nil, &Record{Session: "S", Seq: seq, Time: t0, Dir: ClientToServer, Transport: Stdio, Frame: []byte(`{}`), HasFrame: true}))
	}
	log := good(1) + "{not json\n" + "\n" + `{"v":1,"seq":3}` + "\n" + `{"v":99,"seq":4,"dir":"c2s","ts":"2026-01-01T00:00:00Z"}` + "\n" + good(5) + good(6)[:20]
	rd := NewReader(strings.NewReader(log))
	var seqs []uint64
	for {
		r, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, r.Seq)
	}
	if d := cmp.Diff([]uint64{1, 5}, seqs); d != "" {
		t.Errorf("seqs mismatch (-want +got):\n%s", d)
	}
	type prob struct {
		Line int
		Torn bool
	}
	var got []prob
	for _, p := range rd.Problems() {
		got = append(got, prob{p.Line, p.Torn})
		if !strings.Contains(p.Error(), "line ") {
			t.Errorf("LineError.Error() = %q, want the line number", p.Error())
		}
	}
	want := []prob{{2, false}, {4, false}, {5, false}, {7, true}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Problems() mismatch (-want +got):\n%s", d)
	}
	if rd.Skipped() != 4 {
		t.Errorf("Skipped() = %d, want 4", rd.Skipped())
	}
}

func TestReaderLongLineBoundedAndReported(t *testing.T) {
	// A line over the limit is dropped without holding it; the next
	// record is still read.
	const limit = 1 << 20
	var b bytes.Buffer
	b.WriteString(`{"v":1,"seq":1,"dir":"c2s","ts":"2026-01-01T00:00:00Z","frameText":"`)
	b.Write(bytes.Repeat([]byte("a"), 3*limit))
	b.WriteString("\"}\n")
	b.Write(AppendRecord(nil, &Record{Seq: 2, Time: t0, Dir: Stderr}))
	rd := NewReader(&b)
	rd.maxLine = limit
	r, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	if r.Seq != 2 {
		t.Errorf("Next().Seq = %d, want 2", r.Seq)
	}
	if len(rd.Problems()) != 1 || rd.Problems()[0].Line != 1 {
		t.Errorf("Problems() = %v, want line 1 too long", rd.Problems())
	}
	if cap(rd.buf) > 2*limit {
		t.Errorf("reader buffer grew to %d bytes", cap(rd.buf))
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte(AppendRecord(nil, &Record{Seq: 1, Time: t0, Dir: ClientToServer, Frame: []byte(`{"a":1}`), HasFrame: true})))
	f.Add([]byte(`{"v":1,"seq":1,"dir":"c2s","ts":"2026-01-01T00:00:00Z","frameBase64":"//57"}` + "\n{\"v\":1"))
	f.Add([]byte(`{"v":1,"seq":1,"dir":"c2s","ts":"x","frame":null,"frameText":"a"}`))
	f.Add([]byte("\n\n\r\n{}\n[]\nnull\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd := NewReader(bytes.NewReader(data))
		for i := 0; ; i++ {
			r, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("Next() error on in-memory input: %v", err)
			}
			// Whatever was read re-encodes to a record that reads back the same frame.
			again, err := NewReader(bytes.NewReader(AppendRecord(nil, r))).Next()
			if err != nil {
				t.Fatalf("re-read of re-encoded record: %v", err)
			}
			if !bytes.Equal(again.Frame, r.Frame) || again.HasFrame != r.HasFrame {
				t.Fatalf("frame changed on re-encode: %q -> %q", r.Frame, again.Frame)
			}
			if i > len(data) {
				t.Fatal("more records than bytes")
			}
		}
	})
}

func FuzzAppendRecordFrame(f *testing.F) {
	for _, s := range []string{"", "{}", "\xff", "{\"a\":1}\r", " 1", "\"\\u0000\"", "[1,\n2]", "{\"s\":\"\xe9\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		line := AppendRecord(nil, &Record{Seq: 1, Time: t0, Dir: ServerToClient, Frame: frame, HasFrame: true})
		if bytes.IndexByte(line, '\n') != len(line)-1 {
			t.Fatalf("record is not one line: %q", line)
		}
		if !utf8.Valid(line) {
			t.Fatalf("record is not valid UTF-8: %q", line)
		}
		r, err := NewReader(bytes.NewReader(line)).Next()
		if err != nil {
			t.Fatalf("Next() = %v for %q", err, line)
		}
		if !bytes.Equal(r.Frame, frame) {
			t.Fatalf("frame %q read back as %q", frame, r.Frame)
		}
	})
}

// FuzzDecodeEquivalent checks the fast decoder against encoding/json
// (decodeStd): the same record or the same error for every line.
func FuzzDecodeEquivalent(f *testing.F) {
	for _, r := range roundTripRecords() {
		f.Add(AppendRecord(nil, r))
	}
	for _, s := range []string{
		`{"v":1,"seq":1,"dir":"c2s","ts":"2026-01-01T00:00:00Z","frameBase64":"//57"}`,
		`{"v":1,"seq":1,"dir":"c2s","ts":"x","frame":null,"frameText":"a"}`,
		`{"V":1,"Seq":1,"dir":"c2s","ts":"2026-01-01T00:00:00Z"}`,
		`{"v":1,"seq":1,"seq":2,"dir":"c2s","ts":"2026-01-01T00:00:00Z"}`,
		`{"v":1.0,"seq":1,"dir":"c2s","ts":"2026-01-01T00:00:00Z"}`,
		`{"v":1,"seq":-1,"dir":"c2s","ts":"2026-01-01T00:00:00Z","x":[1,{"a":null}]}`,
		` {"v":1,"seq":18446744073709551615,"dir":"s\u0032c","ts":"2026-01-01T00:00:00+02:00","frameText":"\ud800 \n"} ` + "\r",
		`{"v":1,"seq":1,"dir":"c2s","ts":"2026-01-01T00:00:00Z","header":{"A":[],"B":["x","y"],"A":["z"]},"sse":{}}`,
		`{"v":1,"seq":1,"dir":"c2s","ts":"2026-01-01T00:00:00Z","frameText":"a","frameBase64":"!"}`,
		`{"v":2,"seq":1}`, `{}`, `[]`, `{"v":1,"seq":1,"dir":"c2s","ts":"2026-01-01T00:00:00Z","frame":{"a":1}}x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		want, wantErr := decodeStd(line)
		var d decoder
		got, gotErr := d.decode(line)
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
			t.Fatalf("decode(%q) error = %v, decodeStd = %v", line, gotErr, wantErr)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("decode(%q) mismatch (-decodeStd +decode):\n%s", line, d)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	line := AppendRecord(nil, &Record{Session: "01JABCDEFGHJKMNPQRSTVWXYZ0", Label: "bench", Seq: 12345, Time: t0,
		Dir: ClientToServer, Transport: Stdio, HasFrame: true,
		Frame: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello world"}}}`)})
	b.Run("fast", func(b *testing.B) {
		var d decoder
		b.SetBytes(int64(len(line)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := d.decode(line); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("std", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeStd(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestHeadEncoderMatches pins that a HeadEncoder, reused over a run of
// records where each member repeats or changes, writes what
// AppendRecordHead writes for each record alone.
func TestHeadEncoderMatches(t *testing.T) {
	local := time.FixedZone("X", 3600)
	times := []time.Time{t0, t0.Add(time.Nanosecond), t0.In(local), {}, t0.Round(0)}
	dirs := []Direction{ClientToServer, ServerToClient, ""}
	names := []string{"s1", "s\"2", ""}
	transports := []Transport{"stdio", "http"}
	// A walk that changes one member a step (each in turn), every record
	// written twice: each cached member is seen changing alone.
	var recs []Record
	var ti, di, si, li, tri, v int
	for step := range 60 {
		switch step % 6 {
		case 0:
			ti = (ti + 1) % len(times)
		case 1:
			di = (di + 1) % len(dirs)
		case 2:
			si = (si + 1) % len(names)
		case 3:
			li = (li + 1) % len(names)
		case 4:
			tri = (tri + 1) % len(transports)
		case 5:
			v = Version + 1 - v // 0 (the current version) or the next
		}
		r := Record{V: v, Session: names[si], Label: names[li], Seq: uint64(step + 1),
			Time: times[ti], Dir: dirs[di], Transport: transports[tri],
			Frame: []byte(`{"id":1}`), HasFrame: true, Size: 8}
		recs = append(recs, r, r)
	}
	var e HeadEncoder
	for i := range recs {
		want, wantFrame := AppendRecordHead(nil, &recs[i])
		got, gotFrame := e.AppendRecordHead([]byte("x"), &recs[i])
		if string(got[1:]) != string(want) || string(gotFrame) != string(wantFrame) {
			t.Fatalf("record %d: the encoder wrote\n%s%s\nAppendRecordHead\n%s%s", i, got[1:], gotFrame, want, wantFrame)
		}
	}
}
