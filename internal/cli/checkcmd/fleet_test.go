package checkcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/fleetrun"
	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/compat"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
)

// fleetFixtures are what the targets of a test fleet run, in turn: each
// target was recorded against clean@v1, so these give no drift, no drift,
// breaking drift, cosmetic drift (under the risky gate: exit 0) and
// schema drift.
var fleetFixtures = []string{"clean@v1", "clean@v2-identical", "drift-breaking@v2", "drift-cosmetic@v2", "drift-schema@v2"}

// writeFleet writes dir/mcpward.json with n fixture targets (t000, t001,
// … listed in reverse, so config order is not the alphabet) and their
// snapshots, recorded against clean@v1 with no probes.
func writeFleet(tb testing.TB, dir string, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("{\"targets\": {\n")
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "  %q: {\"fixture\": %q, \"probes\": []}", fmt.Sprintf("t%03d", i), fleetFixtures[i%len(fleetFixtures)])
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}}\n")
	path := filepath.Join(dir, config.FileName)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	// One observation of clean@v1 serves as every target's snapshot: the
	// snapshot does not name its target.
	tg, err := contract.FromConfig(dir, "t", &config.Target{Fixture: "clean@v1", Probes: []config.Probe{}}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	obs, err := contract.Observe(context.Background(), tg, &contract.ObserveOptions{Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil || !obs.Complete() {
		tb.Fatalf("record: %v %v", err, obs.Problems)
	}
	snapDir := filepath.Join(dir, config.DefaultSnapshotDir)
	for i := range n {
		if err := contract.WriteSnapshot(contract.SnapshotPath(snapDir, fmt.Sprintf("t%03d", i)), obs.Snapshot); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

func fleetOpts(ios *iostreams.IOStreams, configPath string, jobs int) *CheckOptions {
	o := &CheckOptions{
		IO:         ios,
		Version:    "test",
		ConfigPath: configPath,
		Reporter:   "json",
		Target:     cmdutil.TargetFlags{Timeout: client.DefaultRequestTimeout},
		Fleet:      fleetrun.Flags{All: true, Jobs: jobs, TargetTimeout: fleetrun.DefaultTargetTimeout},
		RecordedAt: time.Unix(0, 0),
	}
	o.Compat = compat.ForCheck(connect.Env{}, o.Version)
	return o
}

// The sections follow the config's order and the output is the same
// bytes whatever the parallelism; the exit code is the worst target's.
func TestFleetOrderAndDeterminism(t *testing.T) {
	dir := t.TempDir()
	path := writeFleet(t, dir, 12)
	var first string
	for _, jobs := range []int{1, 3, 12} {
		ios, _, out, _ := iostreams.Test()
		err := checkRun(context.Background(), fleetOpts(ios, path, jobs))
		if got := code(err); got != result.Drift {
			t.Fatalf("jobs %d: exit %d (%v), want %d", jobs, got, err, result.Drift)
		}
		if first == "" {
			first = out.String()
			var r result.Result
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			for i, s := range r.Targets {
				if want := fmt.Sprintf("t%03d", 11-i); s.Target.Name != want {
					t.Errorf("section %d is %s, want %s (config order)", i, s.Target.Name, want)
				}
				if want := []int{0, 0, 1, 0, 1}[(11-i)%5]; s.ExitCode != want {
					t.Errorf("%s exit %d, want %d", s.Target.Name, s.ExitCode, want)
				}
			}
			continue
		}
		if out.String() != first {
			t.Errorf("jobs %d: output differs from jobs 1", jobs)
		}
	}
}

// BenchmarkFleet checks a 200-target config of embedded fixtures (drift
// and the compat rules on each) with --jobs 1, 2 and the default (the
// number of CPUs; on a 2-CPU machine that is the jobs=2 case).
func BenchmarkFleet(b *testing.B) {
	dir := b.TempDir()
	path := writeFleet(b, dir, 200)
	for _, jobs := range slices.Compact([]int{1, 2, max(runtime.NumCPU(), 2)}) {
		name := fmt.Sprintf("targets=200/jobs=%d", jobs)
		if jobs == runtime.NumCPU() {
			name += "(default)"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				ios, _, _, _ := iostreams.Test()
				if err := checkRun(context.Background(), fleetOpts(ios, path, jobs)); code(err) != result.Drift {
					b.Fatalf("exit %d: %v", code(err), err)
				}
			}
		})
	}
}

// BenchmarkFleetLatency checks 40 targets of the slow fixture (every
// answer 10ms late, as a remote server's would be; --no-compat): the time
// is waiting, not CPU, and --jobs divides it.
func BenchmarkFleetLatency(b *testing.B) {
	b.Setenv("MCPWARD_FIXTURE_DELAY", "10ms")
	dir := b.TempDir()
	path := filepath.Join(dir, config.FileName)
	var cfg strings.Builder
	cfg.WriteString("{\"targets\": {")
	for i := range 40 {
		if i > 0 {
			cfg.WriteString(",")
		}
		fmt.Fprintf(&cfg, "%q: {\"fixture\": \"slow\", \"probes\": []}", fmt.Sprintf("s%02d", i))
	}
	cfg.WriteString("}}")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	tg, err := contract.FromConfig(dir, "s", &config.Target{Fixture: "slow", Probes: []config.Probe{}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	obs, err := contract.Observe(context.Background(), tg, &contract.ObserveOptions{Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil || !obs.Complete() {
		b.Fatalf("record: %v", err)
	}
	for i := range 40 {
		if err := contract.WriteSnapshot(contract.SnapshotPath(filepath.Join(dir, config.DefaultSnapshotDir), fmt.Sprintf("s%02d", i)), obs.Snapshot); err != nil {
			b.Fatal(err)
		}
	}
	for _, jobs := range []int{1, 2, 8, 40} {
		b.Run(fmt.Sprintf("targets=40/jobs=%d", jobs), func(b *testing.B) {
			for b.Loop() {
				ios, _, _, _ := iostreams.Test()
				o := fleetOpts(ios, path, jobs)
				o.Compat = nil
				if err := checkRun(context.Background(), o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The progress line is on stderr only when stderr is a terminal: it
// counts the finished targets and names the running ones, and is cleared
// before the report. Piped, stderr stays silent.
func TestFleetProgress(t *testing.T) {
	dir := t.TempDir()
	path := writeFleet(t, dir, 3)
	for _, tty := range []bool{false, true} {
		ios, _, out, errOut := iostreams.Test()
		ios.SetStderrTTY(tty)
		o := fleetOpts(ios, path, 1)
		o.Compat = nil
		if err := checkRun(context.Background(), o); code(err) != result.Drift {
			t.Fatalf("exit %d: %v", code(err), err)
		}
		if !tty {
			if errOut.Len() != 0 {
				t.Errorf("piped stderr: %q, want nothing", errOut)
			}
			continue
		}
		// --jobs 1: t002 runs first (config order), then t001, then t000.
		for _, want := range []string{
			"\r\x1b[K… checking 3 targets: 0 done, running t002",
			"\r\x1b[K… checking 3 targets: 1 done, running t001",
			"\r\x1b[K… checking 3 targets: 3 done",
		} {
			if !strings.Contains(errOut.String(), want) {
				t.Errorf("terminal stderr lacks %q:\n%q", want, errOut)
			}
		}
		if !strings.HasSuffix(errOut.String(), "\r\x1b[K") {
			t.Errorf("progress line not cleared at the end: %q", errOut)
		}
		if strings.Contains(out.String(), "\x1b") {
			t.Error("progress reached stdout")
		}
	}
}
