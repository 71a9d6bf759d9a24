package iostreams

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// rulesTable fills a printer with rows shaped like `mcpward rules`: short
// columns and one long free-text column.
func rulesTable(tp *TablePrinter) {
	tp.AddHeader("ID", "LEVEL", "CLASS", "MEANING")
	tp.AddRow("transport.get_not_405", "SHOULD", "risky", "GET on the MCP endpoint of a server that offers no SSE stream must answer 405 Method Not Allowed, not 200 or 404")
	tp.AddRow("tool.removed", "-", "breaking", "a tool the old snapshot had is gone")
	tp.AddRow("xhdr.not_token", "MUST", "violation", "an x-mcp-header name is not an HTTP token")
}

func render(t *testing.T, tty bool, width int, fill func(*TablePrinter)) string {
	t.Helper()
	var buf bytes.Buffer
	tp := NewTablePrinter(&buf, tty, width)
	fill(tp)
	if err := tp.Render(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestTablePrinterWidth80(t *testing.T) {
	got := render(t, true, 80, rulesTable)
	want := `ID                     LEVEL   CLASS      MEANING
transport.get_not_405  SHOULD  risky      GET on the MCP endpoint of a server t…
tool.removed           -       breaking   a tool the old snapshot had is gone
xhdr.not_token         MUST    violation  an x-mcp-header name is not an HTTP t…
`
	if got != want {
		t.Errorf("width 80:\n%s\nwant:\n%s", got, want)
	}
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if w := ansi.StringWidth(line); w > 80 {
			t.Errorf("line is %d cells wide, more than 80: %q", w, line)
		}
	}
}

func TestTablePrinterWidth200(t *testing.T) {
	got := render(t, true, 200, rulesTable)
	want := `ID                     LEVEL   CLASS      MEANING
transport.get_not_405  SHOULD  risky      GET on the MCP endpoint of a server that offers no SSE stream must answer 405 Method Not Allowed, not 200 or 404
tool.removed           -       breaking   a tool the old snapshot had is gone
xhdr.not_token         MUST    violation  an x-mcp-header name is not an HTTP token
`
	if got != want {
		t.Errorf("width 200:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(got, "…") {
		t.Error("a table that fits was cut")
	}
}

func TestTablePrinterPiped(t *testing.T) {
	got := render(t, false, 80, rulesTable)
	want := "transport.get_not_405\tSHOULD\trisky\tGET on the MCP endpoint of a server that offers no SSE stream must answer 405 Method Not Allowed, not 200 or 404\n" +
		"tool.removed\t-\tbreaking\ta tool the old snapshot had is gone\n" +
		"xhdr.not_token\tMUST\tviolation\tan x-mcp-header name is not an HTTP token\n"
	if got != want {
		t.Errorf("piped:\n%q\nwant:\n%q", got, want)
	}
}

func TestTablePrinterCellsStayInTheirColumn(t *testing.T) {
	fill := func(tp *TablePrinter) {
		tp.AddRow("a\tb", "line1\nline2")
	}
	if got, want := render(t, false, 80, fill), "a b\tline1 line2\n"; got != want {
		t.Errorf("piped = %q, want %q", got, want)
	}
	if got, want := render(t, true, 80, fill), "a b  line1 line2\n"; got != want {
		t.Errorf("tty = %q, want %q", got, want)
	}
}

func TestTablePrinterIndentAndWideRunes(t *testing.T) {
	fill := func(tp *TablePrinter) {
		tp.SetIndent("  ")
		tp.AddHeader("TOOL", "NOTE")
		tp.AddRow("日本語ツール", "ok")
		tp.AddRow("x", "a long note that will not fit")
	}
	got := render(t, true, 30, fill)
	want := "  TOOL          NOTE\n" +
		"  日本語ツール  ok\n" +
		"  x             a long note t…\n"
	if got != want {
		t.Errorf("indented:\n%s\nwant:\n%s", got, want)
	}
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if w := ansi.StringWidth(line); w > 30 {
			t.Errorf("line is %d cells wide, more than 30: %q", w, line)
		}
	}
}

func TestFitSharesWhatIsLeft(t *testing.T) {
	for _, tc := range []struct {
		natural []int
		avail   int
		want    []int
	}{
		{[]int{5, 10, 20}, 100, []int{5, 10, 20}},
		{[]int{5, 40, 40}, 45, []int{5, 20, 20}},
		{[]int{5, 40, 41}, 46, []int{5, 21, 20}},
		{[]int{10, 10, 10}, 3, []int{3, 3, 3}}, // never below minCellWidth
		// sessions list at 80 columns: the counts stay whole, label and id
		// are cut.
		{[]int{23, 26, 9, 8, 8, 6, 5, 6}, 66, []int{12, 12, 9, 8, 8, 6, 5, 6}},
		// Too narrow to keep the short ones whole: everyone is cut.
		{[]int{23, 26, 9, 8, 8, 6, 5, 6}, 46, []int{6, 6, 6, 6, 6, 6, 5, 5}},
	} {
		got := fit(tc.natural, tc.avail)
		if !equalInts(got, tc.want) {
			t.Errorf("fit(%v, %d) = %v, want %v", tc.natural, tc.avail, got, tc.want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestForceTTY(t *testing.T) {
	s, _, _, _ := Test()
	s.forceTTY("", false)
	if s.IsStdoutTTY() {
		t.Fatal("unset MCPWARD_FORCE_TTY forced a terminal")
	}
	s.forceTTY("132", true)
	if !s.IsStdoutTTY() || s.TerminalWidth() != 132 {
		t.Errorf("MCPWARD_FORCE_TTY=132: tty %v width %d", s.IsStdoutTTY(), s.TerminalWidth())
	}
	s, _, _, _ = Test()
	s.forceTTY("1", true)
	if !s.IsStdoutTTY() || s.TerminalWidth() != 100 {
		t.Errorf("MCPWARD_FORCE_TTY=1: tty %v width %d (want a terminal of the default width)", s.IsStdoutTTY(), s.TerminalWidth())
	}
}

func TestTablePrinterCutFirst(t *testing.T) {
	fill := func(tp *TablePrinter) {
		tp.CutFirst(1)
		tp.AddHeader("ID", "MEANING")
		tp.AddRow("xhdr.not_statically_reachable_at_all", "an x-mcp-header sits somewhere a client cannot reach")
	}
	got := render(t, true, 60, fill)
	want := "ID                                    MEANING\n" +
		"xhdr.not_statically_reachable_at_all  an x-mcp-header sits…\n"
	if got != want {
		t.Errorf("cut first:\n%s\nwant:\n%s", got, want)
	}
	// Too narrow for the id to stay whole: both give way.
	got = render(t, true, 30, fill)
	want = "ID              MEANING\n" +
		"xhdr.not_stat…  an x-mcp-head…\n"
	if got != want {
		t.Errorf("cut first, narrow:\n%s\nwant:\n%s", got, want)
	}
}

// TestTablePrinterWrapColumns: a column of WrapColumns wraps at words onto
// further lines, aligned under its column, instead of being cut (issue 25
// item 4: migrate's notes).
func TestTablePrinterWrapColumns(t *testing.T) {
	got := render(t, true, 60, func(tp *TablePrinter) {
		tp.CutFirst(2)
		tp.WrapColumns(2)
		tp.AddHeader("FILE", "KIND", "NOTE")
		tp.AddRow("a.json", "snapshot", "the probe spec and the recorded time could not be carried over from the old file")
		tp.AddRow("b.json", "config", "short")
	})
	want := `FILE    KIND      NOTE
a.json  snapshot  the probe spec and the recorded time could
                  not be carried over from the old file
b.json  config    short
`
	if got != want {
		t.Errorf("wrapped:\n%s\nwant:\n%s", got, want)
	}
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("line wider than 60: %q", l)
		}
	}
}
