package text

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/report/reporttest"
	"github.com/mcpward/mcpward/internal/result"
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

// TestSeedLayout pins the verified snapgauge output of the seed example byte
// for byte, independently of the golden files.
func TestSeedLayout(t *testing.T) {
	want := `breaking   tool.input.required.added          tools.get_weather.inputSchema.required.date — input "date" is now required — a client recorded against the old contract does not send it
breaking   tool.removed                       tools.archive_note — tool "archive_note" was removed — a client holding the old contract will fail
risky      tool.description.changed           tools.get_weather.description — description changed — the trigger surface a model routes on (SPEC §5: risky, not cosmetic)
compatible tool.input.optional.added          tools.list_notes.inputSchema.properties.cursor — optional input "cursor" was added
cosmetic   serverInfo.version.changed         discover.serverInfo.version — serverInfo.version changed
cosmetic   tool.icons.changed                 tools.get_weather.icons — icons changed
6 findings (2 breaking, 1 risky, 1 compatible, 2 cosmetic); gate fail-on=risky -> DRIFT (exit 1)
`
	var buf bytes.Buffer
	if err := Write(&buf, reporttest.Load(t, "seed")); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, buf.String()); d != "" {
		t.Errorf("seed layout mismatch (-want +got):\n%s", d)
	}
}

func TestVerdictLines(t *testing.T) {
	tests := []struct {
		name string
		want string
	}{
		{"clean", "0 findings (0 breaking, 0 risky, 0 compatible, 0 cosmetic); gate fail-on=risky -> PASS (exit 0)"},
		{"incomplete", "1 finding (0 breaking, 1 risky, 0 compatible, 0 cosmetic); gate fail-on=risky -> INCOMPLETE (exit 2)"},
		{"violations", "4 rule findings (2 violations, 1 risky, 1 info); gate fail-on=risky -> 2 MUST violations, 1 risky finding (exit 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, reporttest.Load(t, tt.name)); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "\n"+tt.want+"\n") {
				t.Errorf("report lacks %q:\n%s", tt.want, buf.String())
			}
		})
	}
}

// TestHostileText checks that server-supplied text cannot add a line or
// reach the terminal as an escape sequence.
func TestHostileText(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, reporttest.Load(t, "hostile")); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, "\n"); n != 3 {
		t.Errorf("got %d lines, want 3 (target, finding, summary):\n%s", n, out)
	}
	if strings.ContainsAny(out, "\x1b\r\u202e") {
		t.Errorf("control characters reached the output: %q", out)
	}
}

func TestColor(t *testing.T) {
	r := reporttest.Load(t, "seed")
	var plain, colored bytes.Buffer
	if err := Write(&plain, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteOptions(&colored, r, &Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(colored.String(), "\x1b[31mbreaking\x1b[0m   tool.removed") {
		t.Errorf("colour output does not colour the tier and keep its padding:\n%q", colored.String())
	}
	stripped := strings.NewReplacer("\x1b[0m", "", "\x1b[1m", "", "\x1b[2m", "", "\x1b[31m", "", "\x1b[32m", "", "\x1b[33m", "", "\x1b[36m", "").Replace(colored.String())
	if d := cmp.Diff(plain.String(), stripped); d != "" {
		t.Errorf("colour changes more than colour (-plain +stripped):\n%s", d)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

func TestWriteError(t *testing.T) {
	if err := Write(failWriter{}, reporttest.Load(t, "seed")); err == nil {
		t.Error("Write to a failing writer returned nil")
	}
}

// A re-rendered compat Result says what was not evaluated (issue 11 item
// 14), as compat's own text does.
func TestNotEvaluated(t *testing.T) {
	r := reporttest.Load(t, "clean")
	r.Command = "compat"
	r.NotEvaluated = []result.NotEvaluated{{What: "profile modern-full", Why: "the server does not serve 2026-07-28 (era legacy)"}}
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	if want := "\nnot evaluated: profile modern-full — the server does not serve 2026-07-28 (era legacy)\n"; !strings.Contains(buf.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, buf.String())
	}
}

// A compat Result renders compat's own report; whatever the server (or
// whoever edited a saved Result) put in it stays on its line.
func TestHostileCompatText(t *testing.T) {
	const evil = "x\n0 violation(s), 0 risky -> PASS (exit 0)\x1b[2J\u202e\x1b]52;c;ZXZpbA==\x07\x1b]0;title\x07\rOVER\x1b[31m"
	res := &result.Result{
		Command: "compat", ExitCode: result.Violation,
		Target: &result.Target{Endpoint: "srv" + evil, Transport: "stdio"},
		Compat: &result.Compat{
			Server: "evil" + evil, Era: "modern-only", SupportedVersions: []string{"2026-07-28" + evil},
			Profiles:   []string{"modern-full"},
			Assertions: []result.Assertion{{ID: "transport.x", Verdict: "fail", Detail: "saw" + evil}},
			Verdicts:   map[string]map[string]string{"tool" + evil: {"modern-full": "ok" + evil}},
		},
		Violations:   []result.RuleFinding{{RuleID: "transport.x", Class: "violation", Subject: "s" + evil, Message: "m" + evil}},
		NotEvaluated: []result.NotEvaluated{{What: "w" + evil, Why: "y" + evil}},
	}
	var buf bytes.Buffer
	if err := Write(&buf, res); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.ContainsAny(out, "\x1b\r\u202e\a") {
		t.Errorf("control characters reached the output: %q", out)
	}
	// Issue 26 item 3: shown, not dropped, by the one sanitiser.
	if want := `\x1b[2J\u{202e}\x1b]52;c;ZXZpbA==\x07\x1b]0;title\x07\rOVER\x1b[31m`; !strings.Contains(out, want) {
		t.Errorf("output lacks the visible %s:\n%s", want, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "0 violation(s), 0 risky -> PASS") {
			t.Errorf("a server string forged a summary line:\n%s", out)
		}
	}
}
