package md

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

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
			reporttest.Golden(t, *update, filepath.Join("testdata", name+".md"), buf.Bytes())
		})
	}
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"a|b", `a\|b`},
		{"`x`", "\\`x\\`"},
		{"<script>", `\<script\>`},
		{"[l](u)", `\[l\](u)`},
		{"a\nb", `a\\nb`},
		{`back\slash`, `back\\slash`},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"tools.get_weather", "`tools.get_weather`"},
		{"a|b", "`a\\|b`"},
		{"has `tick`", "has \\`tick\\`"},
		{"", ""},
		{"x\ny", "`x\\ny`"},
	}
	for _, tt := range tests {
		if got := Code(tt.in); got != tt.want {
			t.Errorf("Code(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTableCells checks that every table row of every report has as many
// unescaped pipes as its header: no server-supplied text can add a column.
func TestTableCells(t *testing.T) {
	for _, name := range reporttest.Cases {
		var buf bytes.Buffer
		if err := Write(&buf, reporttest.Load(t, name)); err != nil {
			t.Fatal(err)
		}
		cols := 0
		for _, line := range strings.Split(buf.String(), "\n") {
			if !strings.HasPrefix(line, "|") {
				cols = 0
				continue
			}
			n := strings.Count(line, "|") - strings.Count(line, `\|`)
			if cols == 0 {
				cols = n
			} else if n != cols {
				t.Errorf("%s: row has %d pipes, header %d: %s", name, n, cols, line)
			}
		}
	}
}

func TestAcceptHint(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, reporttest.Load(t, "seed")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "`mcpward check --update`") {
		t.Errorf("drift report does not say how to accept:\n%s", buf.String())
	}
}
