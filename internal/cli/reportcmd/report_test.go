package reportcmd

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/report"
)

// seed is a saved Result shared with the export packages' tests.
var seed = filepath.Join("..", "..", "report", "testdata", "seed.json")

func TestNewCmdReportFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    ReportOptions
		wantErr string
	}{
		{name: "default text", args: []string{"r.json"}, want: ReportOptions{Path: "r.json", Format: "text"}},
		{name: "format and output", args: []string{"r.json", "--format", "sarif", "-o", "out.sarif"}, want: ReportOptions{Path: "r.json", Format: "sarif", Output: "out.sarif"}},
		{name: "short format", args: []string{"-", "-f", "junit"}, want: ReportOptions{Path: "-", Format: "junit"}},
		{name: "unknown format", args: []string{"r.json", "--format", "html"}, wantErr: `unknown --format "html" (formats: text, json, md, github, sarif, junit)`},
		{name: "no file", args: nil, wantErr: "want exactly one result file"},
		{name: "two files", args: []string{"a", "b"}, wantErr: "want exactly one result file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			var got *ReportOptions
			cmd := NewCmdReport(&cmdutil.Factory{IOStreams: ios}, func(o *ReportOptions) error {
				got = o
				return nil
			})
			cmd.SetArgs(tt.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			_, err := cmd.ExecuteC()
			if tt.wantErr != "" {
				var fe *cmdutil.FlagError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) {
					t.Fatalf("error = %v, want a FlagError containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.IO = nil
			if d := cmp.Diff(tt.want, *got); d != "" {
				t.Errorf("options mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// TestReportRunFormats checks that each format prints exactly what its
// renderer writes for the decoded Result, and that the run succeeds (exit
// 0) although the Result records exit 1.
func TestReportRunFormats(t *testing.T) {
	data, err := os.ReadFile(seed)
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.ReadResult(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range report.FormatNames("report") {
		t.Run(format, func(t *testing.T) {
			ios, _, stdout, stderr := iostreams.Test()
			if err := reportRun(&ReportOptions{IO: ios, Path: seed, Format: format}); err != nil {
				t.Fatalf("reportRun: %v", err)
			}
			var want bytes.Buffer
			w, _ := report.Lookup(format)
			if err := w(&want, r); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want.String(), stdout.String()); d != "" {
				t.Errorf("stdout mismatch (-want +got):\n%s", d)
			}
			if stderr.Len() != 0 {
				t.Errorf("stderr = %q, want nothing", stderr)
			}
		})
	}
}

func TestReportRunColor(t *testing.T) {
	ios, _, stdout, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetColorEnabled(true)
	if err := reportRun(&ReportOptions{IO: ios, Path: seed, Format: "text"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "\x1b[31mbreaking") {
		t.Errorf("text on a colour terminal is not coloured:\n%q", stdout)
	}

	ios, _, stdout, _ = iostreams.Test()
	if err := reportRun(&ReportOptions{IO: ios, Path: seed, Format: "text"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout.String(), "\x1b") {
		t.Errorf("piped text is coloured:\n%q", stdout)
	}
}

func TestReportRunOutputFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "mcpward.sarif")
	if err := os.WriteFile(out, []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	ios, _, stdout, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetColorEnabled(true)
	if err := reportRun(&ReportOptions{IO: ios, Path: seed, Format: "sarif", Output: out}); err != nil {
		t.Fatal(err)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout = %q, want nothing with -o", stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("{\n  \"$schema\"")) {
		t.Errorf("output file does not hold the SARIF log: %.80q", b)
	}
	es, _ := os.ReadDir(dir)
	if len(es) != 1 {
		t.Errorf("output directory holds %d entries, want 1", len(es))
	}
}

func TestReportRunStdin(t *testing.T) {
	data, err := os.ReadFile(seed)
	if err != nil {
		t.Fatal(err)
	}
	ios, stdin, stdout, _ := iostreams.Test()
	stdin.Write(data)
	if err := reportRun(&ReportOptions{IO: ios, Path: "-", Format: "github"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "::notice title=mcpward diff::6 findings") {
		t.Errorf("stdout = %.80q", stdout)
	}
}

func TestReportRunBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name     string
		path     string
		wantMsg  string
		wantHint bool
	}{
		{"missing", filepath.Join(dir, "nope.json"), "nope.json: no such file or directory", false},
		{"snapshot", write("snap.json", `{"formatVersion":1,"surface":{}}`), "snap.json: not a mcpward result", true},
		{"garbage", write("g.json", "\x00\x01garbage"), "not a mcpward result", true},
		{"newer", write("new.json", `{"tool":"mcpward","schemaVersion":2,"command":"check"}`), "schemaVersion 2 is newer than this mcpward reads (1)", false},
		{"directory", dir, "read result " + dir + ": is a directory", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, stdout, _ := iostreams.Test()
			err := reportRun(&ReportOptions{IO: ios, Path: tt.path, Format: "text"})
			if err == nil {
				t.Fatal("reportRun succeeded")
			}
			if !errors.Is(err, fault.ErrInput) {
				t.Errorf("error %q is not fault.ErrInput (exit 4)", err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not contain %q", err, tt.wantMsg)
			}
			if got := fault.HintOf(err) != ""; got != tt.wantHint {
				t.Errorf("hint present = %v, want %v", got, tt.wantHint)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout = %q, want nothing on error", stdout)
			}
		})
	}
}

func TestReportRunOutputError(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	err := reportRun(&ReportOptions{IO: ios, Path: seed, Format: "md", Output: filepath.Join(t.TempDir(), "no", "dir", "x.md")})
	if err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
}
