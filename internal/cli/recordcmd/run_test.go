package recordcmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
)

func TestRecordRun(t *testing.T) {
	dir := t.TempDir()
	ios, _, stdout, stderr := iostreams.Test()
	opts := &RecordOptions{
		IO:         ios,
		Version:    "test",
		Name:       "demo",
		Dir:        dir,
		Target:     cmdutil.TargetFlags{Fixture: "clean@v1", Timeout: 5 * time.Second},
		RecordedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	if err := recordRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "demo.snapshot.json")
	want := "recorded demo -> " + path + " (3 tools, 0 resources, 0 prompts)\n"
	if d := cmp.Diff(want, stdout.String()); d != "" {
		t.Errorf("stdout mismatch (-want +got):\n%s", d)
	}
	// Not a TTY: no progress; only the probes it calls, named before.
	wantErr := "will call: get_weather (probe weather), get_weather (probe weather-noargs), archive_note (probe archive)\n"
	if d := cmp.Diff(wantErr, stderr.String()); d != "" {
		t.Errorf("stderr mismatch (-want +got):\n%s", d)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

func TestRecordRunIncompleteWritesNothing(t *testing.T) {
	dir := t.TempDir()
	ios, _, stdout, stderr := iostreams.Test()
	opts := &RecordOptions{
		IO:     ios,
		Name:   "x",
		Dir:    dir,
		Target: cmdutil.TargetFlags{Fixture: "exit-midstream", Timeout: 5 * time.Second},
	}
	err := recordRun(context.Background(), opts)
	var v *cmdutil.VerdictError
	if !errors.As(err, &v) || v.Code != result.Incomplete {
		t.Fatalf("err = %v, want an exit-2 verdict", err)
	}
	if v.Reason != "missing evidence is never 'no change': no snapshot written" {
		t.Errorf("reason = %q", v.Reason)
	}
	wantErr := "will call: get_weather (probe weather), get_weather (probe weather-noargs), archive_note (probe archive)\n" +
		"incomplete: tools/list: server closed the stream before answering tools/list\n" +
		"incomplete: probe weather (tools/call get_weather): server closed the stream before answering tools/call\n" +
		"incomplete: probe weather-noargs (tools/call get_weather): server closed the stream before answering tools/call\n" +
		"incomplete: probe archive (tools/call archive_note): server closed the stream before answering tools/call\n" +
		// What the server said on its way out, once, under a heading.
		"server stderr:\n" +
		"  fatal: worker crashed (simulated), exiting with status 3\n"
	if d := cmp.Diff(wantErr, stderr.String()); d != "" {
		t.Errorf("stderr mismatch (-want +got):\n%s", d)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout = %q", stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files written, want none", len(entries))
	}
}
