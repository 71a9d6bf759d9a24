package github

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestGolden(t *testing.T) {
	for _, name := range reporttest.Cases {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, reporttest.Load(t, name)); err != nil {
				t.Fatal(err)
			}
			reporttest.Golden(t, *update, filepath.Join("testdata", name+".txt"), buf.Bytes())
		})
	}
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"100%", "100%25", "100%25"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"k: v, w", "k: v, w", "k%3A v%2C w"},
		{"%0A", "%250A", "%250A"},
	}
	for _, tt := range tests {
		if got := EscapeData(tt.in); got != tt.data {
			t.Errorf("EscapeData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := EscapeProperty(tt.in); got != tt.prop {
			t.Errorf("EscapeProperty(%q) = %q, want %q", tt.in, got, tt.prop)
		}
	}
}

// command is one parsed workflow command, unescaped as the runner does.
type command struct {
	name  string
	props map[string]string
	msg   string
}

var unescape = strings.NewReplacer("%25", "%", "%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",")

// parse reads the output as the Actions runner would: commands until
// ::stop-commands::TOKEN, nothing until ::TOKEN::, then commands again.
func parse(t *testing.T, out string) []command {
	t.Helper()
	var cmds []command
	stopped := ""
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if stopped != "" {
			if line == "::"+stopped+"::" {
				stopped = ""
			}
			continue
		}
		if !strings.HasPrefix(line, "::") {
			t.Errorf("line outside a command and outside stop-commands: %q", line)
			continue
		}
		head, msg, ok := strings.Cut(line[2:], "::")
		if !ok {
			t.Errorf("malformed command %q", line)
			continue
		}
		name, rawProps, _ := strings.Cut(head, " ")
		c := command{name: name, props: map[string]string{}, msg: unescape.Replace(msg)}
		if rawProps != "" {
			for _, kv := range strings.Split(rawProps, ",") {
				k, v, _ := strings.Cut(kv, "=")
				c.props[k] = unescape.Replace(v)
			}
		}
		if name == "stop-commands" {
			stopped = msg
		}
		cmds = append(cmds, c)
	}
	if stopped != "" {
		t.Error("commands were never resumed")
	}
	return cmds
}

func TestAnnotations(t *testing.T) {
	tests := []struct {
		name string
		// want counts annotations per level (the summary notice included).
		want map[string]int
	}{
		{"seed", map[string]int{"error": 2, "warning": 1, "notice": 4}},
		{"clean", map[string]int{"notice": 1}},
		{"incomplete", map[string]int{"error": 2, "warning": 1, "notice": 1}},
		{"violations", map[string]int{"error": 2, "warning": 1, "notice": 2}},
		{"hostile", map[string]int{"warning": 1, "notice": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, reporttest.Load(t, tt.name)); err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, c := range parse(t, buf.String()) {
				switch c.name {
				case "error", "warning", "notice":
					got[c.name]++
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("annotation counts mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// TestHostileRoundTrip checks that a subject full of command syntax comes
// back from the runner's parser as the same text, in one annotation.
func TestHostileRoundTrip(t *testing.T) {
	r := reporttest.Load(t, "hostile")
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, c := range parse(t, buf.String()) {
		if c.name != "warning" {
			continue
		}
		found = true
		want := command{
			name:  "warning",
			props: map[string]string{"file": "snap,shot:1.json", "title": "risky: tool.added"},
			msg:   `tools.evil\n::error::forged,line%0A|` + "`a|b`" + ` — tool "x\r\n::set-env name=A::B" was added: 100% <b>bold</b> [link](http://x) \x1b[31mred\x1b[0m \u{202e}evil`,
		}
		if d := cmp.Diff(want, c, cmp.AllowUnexported(command{})); d != "" {
			t.Errorf("hostile annotation mismatch (-want +got):\n%s", d)
		}
	}
	if !found {
		t.Error("no warning annotation for the hostile finding")
	}
}

func TestLocation(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, reporttest.Load(t, "seed")); err != nil {
		t.Fatal(err)
	}
	want := "::error file=.mcpward/demo.snapshot.json,line=42,title=breaking%3A tool.input.required.added::tools.get_weather.inputSchema.required.date — input \"date\" is now required — a client recorded against the old contract does not send it\n"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, buf.String())
	}
}
