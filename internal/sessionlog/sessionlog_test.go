package sessionlog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/session"
)

// Line numbers survive blank and corrupt lines, long lines and a torn tail.
func TestReadLineNumbers(t *testing.T) {
	r := func(seq string, pad int) string {
		return `{"v":1,"session":"s","seq":` + seq + `,"ts":"2026-08-01T12:00:00Z","dir":"stderr","frameText":"` + strings.Repeat("x", pad) + `"}`
	}
	log := r("1", 0) + "\n\n" + "garbage\n" + r("2", 200000) + "\n" + r("3", 10) + "\n" + r("4", 0)[:30]
	var got []int
	problems, skipped, err := ReadFrom(strings.NewReader(log), "t", func(rec *session.Record, line int) { got = append(got, line) })
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{1, 4, 5}, got); d != "" {
		t.Errorf("lines mismatch (-want +got):\n%s", d)
	}
	if skipped != 2 || problems[0].Line != 3 || problems[1].Line != 6 || !problems[1].Torn {
		t.Errorf("problems %+v (skipped %d), want corrupt line 3 and torn line 6", problems, skipped)
	}
}

// An mcpsnoop log is read as it is: detected from its first record,
// converted record by record with its line numbers, and its torn last line
// skipped and reported (mcpsnoop's own commands failed on it).
func TestReadMcpsnoop(t *testing.T) {
	var seqs []uint64
	var lines []int
	var start *session.Record
	problems, skipped, err := Read("../migrate/mcpsnoop/testdata/stdio.jsonl", func(rec *session.Record, line int) {
		seqs = append(seqs, rec.Seq)
		lines = append(lines, line)
		if rec.Kind == session.KindStart {
			start = rec
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seqs) != 15 || seqs[14] != 15 || lines[14] != 15 {
		t.Errorf("read seqs %v at lines %v, want 1…15 at lines 1…15", seqs, lines)
	}
	if skipped != 1 || len(problems) != 1 || problems[0].Line != 16 || !problems[0].Torn {
		t.Errorf("problems %v (skipped %d), want torn line 16", problems, skipped)
	}
	if start == nil || string(start.Info) != `{"argv":["python3","server.py","--port","0"],"cwd":"/home/ana/proj"}` {
		t.Errorf("start record %+v", start)
	}
}

// Normalize hands readers of mcpward records (replay) an mcpsnoop log as
// mcpward records, line for line, frames byte for byte; an mcpward log
// passes unchanged.
func TestNormalize(t *testing.T) {
	data, err := os.ReadFile("../migrate/mcpsnoop/testdata/stdio.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var want [][]byte
	if _, _, err := ReadFrom(bytes.NewReader(data), "t", func(rec *session.Record, _ int) { want = append(want, rec.Frame) }); err != nil {
		t.Fatal(err)
	}
	sr := session.NewReader(Normalize(bytes.NewReader(data)))
	var got [][]byte
	for {
		rec, err := sr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rec.Frame)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("frames through Normalize mismatch (-want +got):\n%s", d)
	}
	if p := sr.Problems(); len(p) != 1 || p[0].Line != 16 || !p[0].Torn {
		t.Errorf("problems %v, want the torn line 16", p)
	}
	native := `{"v":1,"session":"s","seq":1,"ts":"2026-08-01T12:00:00Z","dir":"stderr","frameText":"x"}` + "\n"
	b, _ := io.ReadAll(Normalize(strings.NewReader(native)))
	if string(b) != native {
		t.Errorf("Normalize changed an mcpward log: %q", b)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		log  string
		want Format
	}{
		{`{"v":1,"session":"s"}`, FormatMcpward},
		{"\n" + `{"session_id":"s","seq":1}`, FormatMcpsnoop},
		{`{"session_id":"s","raw":"` + strings.Repeat("x", 200<<10) + `"}`, FormatMcpsnoop},
		{"", FormatMcpward},
	}
	for _, tt := range tests {
		br := bufio.NewReaderSize(strings.NewReader(tt.log), 64<<10)
		if got := Detect(br); got != tt.want {
			t.Errorf("Detect(%.40q) = %v, want %v", tt.log, got, tt.want)
		}
		if rest, _ := io.ReadAll(br); string(rest) != tt.log {
			t.Errorf("Detect consumed input")
		}
	}
}

// mcpsnoop's HTTP proxy wrote adjacent records out of seq order under
// load (its bug 1): they are handed on in seq order, each with its own
// line, so a complete capture does not look incomplete; a real gap is
// still a gap, and a late duplicate still comes through.
func TestReadMcpsnoopReorders(t *testing.T) {
	line := func(sess string, seq int) string {
		return fmt.Sprintf(`{"session_id":%q,"seq":%d,"ts":"2026-08-01T12:00:00Z","direction":"c2s","transport":"http","raw":{}}`+"\n", sess, seq)
	}
	var log strings.Builder
	for _, s := range []int{1, 2, 4, 3, 5, 7, 6, 9, 10} {
		log.WriteString(line("a", s))
	}
	log.WriteString(line("b", 1))
	log.WriteString(line("b", 3)) // 2 never comes
	log.WriteString(line("a", 2)) // a late duplicate
	type got struct {
		sess string
		seq  uint64
		line int
	}
	var out []got
	if _, _, err := ReadFrom(strings.NewReader(log.String()), "t", func(r *session.Record, l int) { out = append(out, got{r.Session, r.Seq, l}) }); err != nil {
		t.Fatal(err)
	}
	want := []got{{"a", 1, 1}, {"a", 2, 2}, {"a", 3, 4}, {"a", 4, 3}, {"a", 5, 5}, {"a", 6, 7}, {"a", 7, 6},
		{"b", 1, 10}, {"a", 2, 12}, {"a", 9, 8}, {"a", 10, 9}, {"b", 3, 11}}
	if d := cmp.Diff(want, out, cmp.AllowUnexported(got{})); d != "" {
		t.Errorf("order mismatch (-want +got):\n%s", d)
	}
}

// FuzzReadMcpsnoop: any input that starts like an mcpsnoop log is read
// without a panic, every line at most once (records and skipped lines).
func FuzzReadMcpsnoop(f *testing.F) {
	for _, name := range []string{"stdio", "http", "multi"} {
		if b, err := os.ReadFile("../migrate/mcpsnoop/testdata/" + name + ".jsonl"); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"session_id":"a","seq":3,"ts":"2026-08-01T12:00:00Z","direction":"c2s"}` + "\n" + `{"session_id":"a","seq":1,"ts":"2026-08-01T12:00:00Z","direction":"c2s"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := map[int]bool{}
		problems, skipped, err := ReadFrom(bytes.NewReader(data), "f", func(_ *session.Record, line int) {
			if lines[line] {
				t.Fatalf("line %d read twice", line)
			}
			lines[line] = true
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			if lines[p.Line] {
				t.Fatalf("line %d both read and skipped", p.Line)
			}
		}
		if n := bytes.Count(data, []byte("\n")) + 1; len(lines)+skipped > n {
			t.Fatalf("%d records and %d skipped from %d lines", len(lines), skipped, n)
		}
	})
}

func TestName(t *testing.T) {
	tests := []struct{ path, label, id string }{
		{"/s/sessions/weather-01JD0000000000000000000000.jsonl", "weather", "01JD0000000000000000000000"},
		{"server.py-4242-0a1b2c3d4e5f.jsonl", "server.py", "server.py-4242-0a1b2c3d4e5f"},
		{"my-srv-1-00ff00ff00ff.jsonl", "my-srv", "my-srv-1-00ff00ff00ff"},
		{"x-abc-0a1b2c3d4e5f.jsonl", "x-abc", "0a1b2c3d4e5f"},
		{"solo.jsonl", "", "solo"},
	}
	for _, tt := range tests {
		if l, id := Name(tt.path); l != tt.label || id != tt.id {
			t.Errorf("Name(%q) = %q, %q; want %q, %q", tt.path, l, id, tt.label, tt.id)
		}
	}
	if !Matches("server.py-4242-0a1b2c3d4e5f.jsonl", "", "server.py") || !Matches("server.py-4242-0a1b2c3d4e5f.jsonl", "server.py-4242", "") {
		t.Error("an mcpsnoop log name does not match its label or id prefix")
	}
}

// BenchmarkRead compares reading an mcpsnoop log (converted line by line)
// with reading the same records as an mcpward log.
func BenchmarkRead(b *testing.B) {
	for _, tt := range []struct{ name, file string }{
		{"mcpsnoop", "../migrate/mcpsnoop/testdata/http.jsonl"},
		{"mcpward", "../migrate/mcpsnoop/testdata/http.golden.jsonl"},
	} {
		one, err := os.ReadFile(tt.file)
		if err != nil {
			b.Fatal(err)
		}
		data := bytes.Repeat(one, 1000)
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, _, err := ReadFrom(bytes.NewReader(data), "b", func(*session.Record, int) {}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// NormalizeBytes reads what Normalize reads, and an mcpward log in place.
func TestNormalizeBytes(t *testing.T) {
	data, err := os.ReadFile("../migrate/mcpsnoop/testdata/stdio.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(Normalize(bytes.NewReader(data)))
	got, _ := io.ReadAll(NormalizeBytes(data))
	if !bytes.Equal(got, want) {
		t.Errorf("NormalizeBytes differs from Normalize on an mcpsnoop log")
	}
	native := []byte(`{"v":1,"session":"s","seq":1,"ts":"2026-08-01T12:00:00Z","dir":"stderr","frameText":"x"}` + "\n")
	if _, ok := NormalizeBytes(native).(*bytes.Reader); !ok {
		t.Errorf("NormalizeBytes buffered an mcpward log instead of reading it in place")
	}
}
