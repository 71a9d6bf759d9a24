package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/fault"
)

// pathological are files the TOML decoder takes quadratic time and memory
// on (measured before the limits: an 80 KB dotted header allocated 4.8 GB,
// a dotted key 15 GB, nested inline tables 13.6 GB).
var pathological = []struct{ name, in, want string }{
	{"long dotted table header", "[" + strings.Repeat("a.", 40000) + "a]\n", "line 1: a key with more than 16 dotted parts"},
	{"long dotted key", "label = \"x\"\n" + strings.Repeat("a.", 40000) + "a = 1\n", "line 2: a key with more than 16 dotted parts"},
	{"long dotted key in an inline table", "x = {" + strings.Repeat("a.", 40000) + "a = 1}\n", "line 1: a key with more than 16 dotted parts"},
	{"nested inline tables", "x = " + strings.Repeat("{a=", 20000) + "1" + strings.Repeat("}", 20000) + "\n", "line 1: arrays or inline tables nested more than 16 deep"},
	{"nested arrays", "x = " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n", "line 1: arrays or inline tables nested more than 16 deep"},
	{"too large", "label = \"x\"\n" + strings.Repeat("# padding\n", MaxFileSize/10+1), "the file is larger than 1024 KiB"},
}

// TestPathologicalFilesRefused: each is refused before decoding, with an
// error that says why (issue 12, item 13). The allocation count shows the
// decoder never ran.
func TestPathologicalFilesRefused(t *testing.T) {
	for _, tt := range pathological {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.in)
			_, err := Parse("p.toml", data)
			if err == nil || !strings.Contains(err.Error(), "config p.toml: "+tt.want) || !errors.Is(err, fault.ErrInput) {
				t.Fatalf("Parse() error = %v, want an input error with %q", err, tt.want)
			}
			if allocs := testing.AllocsPerRun(3, func() { Parse("p.toml", data) }); allocs > 50 {
				t.Errorf("Parse() made %v allocations, want a handful (the decoder must not run)", allocs)
			}
		})
	}
}

// TestLimitsLetRealFilesThrough: dots, brackets and braces inside strings
// and comments, dotted keys and floats are not miscounted.
func TestLimitsLetRealFilesThrough(t *testing.T) {
	in := `# a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t [[[[[[[[[[[[[[[[[[[[ {{{{{{{{{{{{{{{{{{
label = "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s"
hub-socket = """
[[[[[[[[[[[[[[[[[[[[.....................{{{{{{{{{{{{{{{{{{{{{{
"""
trace-file = '''x.y.z.[[[[[[[[[[[[[[[[[[[[[[[[[[[['''
redact.values = ['a\.b\.c\.d\.e\.f\.g\.h\.i\.j\.k\.l\.m\.n\.o\.p\.q\.r', "\\[\"{{{{{{{{{{{{{{{{{{{{{{{{.........."]
redact.paths = ["params.arguments.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p"]
`
	f, err := Parse("ok.toml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Redact.Values) != 2 || !strings.HasPrefix(f.TraceFile, "x.y.z.[[") || f.Label != "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s" {
		t.Errorf("Parse() = %+v", f)
	}
}

func TestLoadRefusesHugeFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte(strings.Repeat("# padding\n", 2*MaxFileSize/10)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load("", dir, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "larger than 1024 KiB") || !strings.Contains(err.Error(), path) {
		t.Errorf("Load() error = %v, want the size refusal naming the file", err)
	}
}

// BenchmarkParsePathological reports the cost of refusing the worst file
// (before the limits: seconds and gigabytes).
func BenchmarkParsePathological(b *testing.B) {
	data := []byte(pathological[0].in)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("p.toml", data); err == nil {
			b.Fatal("accepted")
		}
	}
}
