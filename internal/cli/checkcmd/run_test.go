package checkcmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// stored records fixture fx (with clean@v1's probes) as dir/name.
func stored(t *testing.T, dir, name, fx string) string {
	t.Helper()
	tg, err := contract.FromSpec(name, &connect.Spec{Fixture: fx})
	if err != nil {
		t.Fatal(err)
	}
	tg.Probes, _ = contract.FixtureProbes("clean@v1")
	obs, err := contract.Observe(context.Background(), tg, &contract.ObserveOptions{Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil || !obs.Complete() {
		t.Fatalf("record %s: %v", fx, err)
	}
	p := contract.SnapshotPath(dir, name)
	if err := contract.WriteSnapshot(p, obs.Snapshot); err != nil {
		t.Fatal(err)
	}
	return p
}

func opts(ios *iostreams.IOStreams, dir, fx string) *CheckOptions {
	return &CheckOptions{
		IO:       ios,
		Version:  "test",
		Name:     "demo",
		Dir:      dir,
		Reporter: "text",
		Target:   cmdutil.TargetFlags{Fixture: fx, Timeout: 5 * time.Second},
	}
}

func code(err error) int {
	var v *cmdutil.VerdictError
	if errors.As(err, &v) {
		return v.Code
	}
	if err != nil {
		return -1
	}
	return 0
}

func TestCheckRunExitCodes(t *testing.T) {
	violation := func(context.Context, *contract.Target, *snapshot.Snapshot) ([]result.RuleFinding, *result.Compat, error) {
		return []result.RuleFinding{{RuleID: "transport.get_not_405", Level: "SHOULD", Class: "risky", Subject: "transport", Message: "GET answered 200"},
			{RuleID: "xhdr.not_token", Level: "MUST", Class: "violation", Subject: "tools.t", Message: "not a token"}}, nil, nil
	}
	tests := []struct {
		name   string
		live   string
		compat CompatFunc
		want   int
		inOut  string
	}{
		{"clean", "clean@v2-identical", nil, 0, "no changes"},
		{"drift", "drift-breaking@v2", nil, 1, "DRIFT (exit 1)"},
		{"violation beats drift", "drift-breaking@v2", violation, 3, "-> 1 MUST violation, DRIFT (exit 3)"},
		{"violation alone", "clean@v1", violation, 3, "-> 1 MUST violation (exit 3)"},
		{"incomplete beats all", "exit-midstream", violation, 2, "INCOMPLETE: tools/list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			stored(t, dir, "demo", "clean@v1")
			ios, _, stdout, _ := iostreams.Test()
			o := opts(ios, dir, tt.live)
			o.Compat = tt.compat
			err := checkRun(context.Background(), o)
			if got := code(err); got != tt.want {
				t.Fatalf("exit %d (%v), want %d\n%s", got, err, tt.want, stdout)
			}
			if !strings.Contains(stdout.String(), tt.inOut) {
				t.Errorf("stdout lacks %q:\n%s", tt.inOut, stdout)
			}
		})
	}
}

func TestCheckRunUpdate(t *testing.T) {
	dir := t.TempDir()
	p := stored(t, dir, "demo", "clean@v1")
	before, _ := os.ReadFile(p)

	// Incomplete live evidence never updates.
	ios, _, _, _ := iostreams.Test()
	o := opts(ios, dir, "exit-midstream")
	o.Update = true
	err := checkRun(context.Background(), o)
	var v *cmdutil.VerdictError
	if !errors.As(err, &v) || v.Code != 2 || v.Reason != "missing evidence is never 'no change': snapshot not updated" {
		t.Fatalf("err = %v", err)
	}
	if after, _ := os.ReadFile(p); string(after) != string(before) {
		t.Fatal("an incomplete check rewrote the snapshot")
	}

	// Complete drift is accepted: written, exit 0, reported as updated.
	ios, _, stdout, _ := iostreams.Test()
	o = opts(ios, dir, "drift-cosmetic@v2")
	o.Update = true
	o.FailOn = "cosmetic"
	if err := checkRun(context.Background(), o); err != nil {
		t.Fatalf("update: %v", err)
	}
	if !strings.Contains(stdout.String(), "accepted 2 changes (2 cosmetic) into ") {
		t.Errorf("stdout:\n%s", stdout)
	}
	ios, _, _, _ = iostreams.Test()
	o = opts(ios, dir, "drift-cosmetic@v2")
	o.FailOn = "cosmetic"
	if err := checkRun(context.Background(), o); err != nil {
		t.Errorf("check after update: %v", err)
	}
}

func TestCheckRunNoSnapshot(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	err := checkRun(context.Background(), opts(ios, t.TempDir(), "clean@v1"))
	if h := fault.HintOf(err); h != "run 'mcpward record demo' first" {
		t.Errorf("err = %v, hint %q", err, h)
	}
}

func TestCheckSnapshotForm(t *testing.T) {
	dir := t.TempDir()
	p := stored(t, dir, "baseline", "clean@v1")
	ios, _, stdout, _ := iostreams.Test()
	o := &CheckOptions{IO: ios, SnapshotPath: filepath.Clean(p), Reporter: "text", Target: cmdutil.TargetFlags{Fixture: "drift-order@v2", Timeout: 5 * time.Second}}
	if got := code(checkRun(context.Background(), o)); got != 1 {
		t.Fatalf("exit %d, want 1\n%s", got, stdout)
	}
	if !strings.Contains(stdout.String(), "target baseline (fixture)") || !strings.Contains(stdout.String(), "order.changed") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
