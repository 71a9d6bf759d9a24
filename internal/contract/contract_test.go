package contract

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

func env(kv ...string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1], true
			}
		}
		return "", false
	}
}

func TestFromConfig(t *testing.T) {
	ct := &config.Target{
		URL:       "https://mcp.example.com/mcp",
		Headers:   map[string]string{"Authorization": "Bearer ${TOKEN}", "X-Api-Key": "literal", "X-Trace": "t-${TRACE}"},
		Probes:    []config.Probe{{ID: "p", Tool: "t", Arguments: json.RawMessage(`{"a":1}`)}},
		Profiles:  []string{"modern-full"},
		TimeoutMs: 1500,
		FailOn:    "breaking",
		Ignore:    []string{"tool.added"},
	}
	got, err := FromConfig("/repo", "weather", ct, env("TOKEN", "s3cret", "TRACE", "1"))
	if err != nil {
		t.Fatal(err)
	}
	if v := got.Spec.Headers.Get("Authorization"); v != "Bearer s3cret" {
		t.Errorf("Authorization = %q", v)
	}
	if v := got.Spec.Headers.Get("X-Trace"); v != "t-1" {
		t.Errorf("X-Trace = %q", v)
	}
	if got.Spec.Timeout != 1500*time.Millisecond {
		t.Errorf("timeout = %v", got.Spec.Timeout)
	}
	wantWarn := []string{"targets.weather.headers.X-Api-Key holds a literal credential; use ${VAR} so the secret stays out of the repository"}
	if d := cmp.Diff(wantWarn, got.Warnings); d != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", d)
	}
	info := got.Spec.Info()
	if info.Auth != "bearer(redacted)" || strings.Contains(strings.Join(info.HeaderNames, ","), "s3cret") {
		t.Errorf("target info leaks or misses auth: %+v", info)
	}
	h1, _ := got.ProbeSpec().Hash()
	h2, _ := snapshot.ProbeSpec{Probes: []snapshot.ProbeDecl{{ID: "p", Tool: "t", Arguments: json.RawMessage(`{"a": 1}`), Capture: "shape"}}, Profiles: []string{"modern-full"}}.Hash()
	if h1 != h2 {
		t.Errorf("probe spec hash %s, want %s (default capture and whitespace must not matter)", h1, h2)
	}
}

func TestFromConfigUnsetVariable(t *testing.T) {
	ct := &config.Target{URL: "http://127.0.0.1:1/", Headers: map[string]string{"Authorization": "Bearer ${NOPE}"}}
	_, err := FromConfig("", "w", ct, env())
	if err == nil {
		t.Fatal("want an error for an unset variable")
	}
	if !errors.Is(err, fault.ErrInput) || errors.Is(err, fault.ErrIncomplete) {
		t.Errorf("error %q: want fault.Input only (exit 4)", err)
	}
	if !strings.Contains(err.Error(), "targets.w.headers.Authorization") || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("error %q should name the header and the variable", err)
	}
}

func TestFromConfigProbes(t *testing.T) {
	inherit, err := FromConfig("", "a", &config.Target{Fixture: "clean@v1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fx, _ := FixtureProbes("clean@v1")
	if len(fx) == 0 || len(inherit.Probes) != len(fx) {
		t.Errorf("a fixture target without probes inherits the fixture's %d probes, got %d", len(fx), len(inherit.Probes))
	}
	none, err := FromConfig("", "a", &config.Target{Fixture: "clean@v1", Probes: []config.Probe{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(none.Probes) != 0 {
		t.Errorf("explicit empty probes: got %d", len(none.Probes))
	}
	off, on := false, true
	mixed, err := FromConfig("", "a", &config.Target{Fixture: "clean@v1", Probes: []config.Probe{
		{ID: "del", Tool: "delete_note", Enabled: &off, Reason: "destructive"},
		{ID: "arch", Tool: "archive_note", Enabled: &on},
		{ID: "list", Tool: "list_notes"},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ran, skipped []string
	for _, p := range mixed.Probes {
		ran = append(ran, p.ID)
	}
	for _, p := range mixed.Disabled {
		skipped = append(skipped, p.ID)
	}
	if d := cmp.Diff([]string{"arch", "list"}, ran); d != "" {
		t.Errorf("enabled probes mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"del"}, skipped); d != "" {
		t.Errorf("disabled probes mismatch (-want +got):\n%s", d)
	}
	cmdT, err := FromConfig("/cfg", "s", &config.Target{Command: "node", Args: []string{"s.js"}, Cwd: "srv", Home: "/abs", Env: map[string]string{"B": "2", "A": "1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"node", "s.js"}, cmdT.Spec.Command); d != "" {
		t.Error(d)
	}
	if cmdT.Spec.Cwd != filepath.Join("/cfg", "srv") || cmdT.Spec.Home != "/abs" {
		t.Errorf("cwd %q home %q", cmdT.Spec.Cwd, cmdT.Spec.Home)
	}
	if d := cmp.Diff([]string{"A=1", "B=2"}, cmdT.Spec.Env); d != "" {
		t.Error(d)
	}
	if _, err := FromConfig("", "a", &config.Target{Fixture: "no-such-fixture"}, nil); !errors.Is(err, fault.ErrInput) {
		t.Errorf("unknown fixture: err = %v, want fault.Input", err)
	}
}

func TestReadSnapshotErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		path string
		kind error
	}{
		{"missing", filepath.Join(dir, "nope.json"), ErrNoSnapshot},
		{"corrupt", write("c.json", "{"), snapshot.ErrCorrupt},
		{"newer", write("n.json", `{"formatVersion": 7}`), snapshot.ErrNewerFormat},
		{"directory", dir, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadSnapshot(tt.path, false)
			if err == nil || !errors.Is(err, fault.ErrInput) {
				t.Fatalf("err = %v, want a fault.Input", err)
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Errorf("err = %v, want %v", err, tt.kind)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestWriteSnapshotRoundTrip(t *testing.T) {
	s := recordFixture(t, "clean@v1", "")
	p := filepath.Join(t.TempDir(), "sub", "dir", "a.snapshot.json")
	if err := WriteSnapshot(p, s); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSnapshot(p, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.SurfaceDigest != s.SurfaceDigest || len(diff.Diff(s, got)) != 0 {
		t.Error("a written snapshot does not read back the same")
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the snapshot (no temp files)", len(entries))
	}
}

// TestIncompleteObservation: a server that exits after the handshake, and
// one whose tools/list cursor loops, give problems, never a complete
// snapshot.
func TestIncompleteObservation(t *testing.T) {
	for _, name := range []string{"exit-midstream", "cursor-loop"} {
		t.Run(name, func(t *testing.T) {
			tg, err := FromSpec("x", &connect.Spec{Fixture: name, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			obs, err := Observe(context.Background(), tg, &ObserveOptions{Now: func() time.Time { return pinned }})
			if err != nil {
				if !errors.Is(err, fault.ErrIncomplete) {
					t.Fatalf("err = %v, want incomplete", err)
				}
				return
			}
			if obs.Complete() || len(obs.Problems) == 0 {
				t.Fatalf("observation of %s is complete; want problems", name)
			}
			if obs.Snapshot.SurfaceDigest != "" {
				t.Errorf("an incomplete snapshot has a surface digest")
			}
			t.Logf("problems: %q", obs.Problems)
		})
	}
}

func BenchmarkRecordBig(b *testing.B) {
	tg, err := FromSpec("big", &connect.Spec{Fixture: "big"})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "big.snapshot.json")
	b.ReportAllocs()
	for b.Loop() {
		obs, err := Observe(context.Background(), tg, &ObserveOptions{Now: func() time.Time { return pinned }})
		if err != nil {
			b.Fatal(err)
		}
		if !obs.Complete() {
			b.Fatalf("incomplete: %v", obs.Problems)
		}
		if err := WriteSnapshot(path, obs.Snapshot); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckBig is `mcpward check` of the 5,000-tool fixture against
// its stored snapshot, without the compat profiles: read the snapshot,
// observe the server, diff, render the text report.
func BenchmarkCheckBig(b *testing.B) {
	tg, err := FromSpec("big", &connect.Spec{Fixture: "big"})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "big.snapshot.json")
	obs, err := Observe(context.Background(), tg, &ObserveOptions{Now: func() time.Time { return pinned }})
	if err != nil {
		b.Fatal(err)
	}
	if err := WriteSnapshot(path, obs.Snapshot); err != nil {
		b.Fatal(err)
	}
	gate, err := verdict.ParseGate("risky", nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		stored, err := ReadSnapshot(path, false)
		if err != nil {
			b.Fatal(err)
		}
		obs, err := Observe(context.Background(), tg, &ObserveOptions{Now: func() time.Time { return pinned }})
		if err != nil {
			b.Fatal(err)
		}
		problems := append(verdict.SideProblems("stored", stored), obs.Problems...)
		r := verdict.Compare(&verdict.Comparison{Command: "check", Old: stored, New: obs.Snapshot, OldPath: path, FindingFile: path, Gate: gate, Problems: problems})
		if r.ExitCode != 0 {
			b.Fatalf("exit %d, want 0: %v", r.ExitCode, r.Evidence.Problems)
		}
		ios, _, out, _ := iostreams.Test()
		if err := Render(ios, "text", r); err != nil {
			b.Fatal(err)
		}
		if out.Len() == 0 {
			b.Fatal("empty report")
		}
	}
}

// ReadSnapshot gives a whole snapshot, tools decoded, for every caller
// that reads Surface.Tools (inspect, serve, init, the converters); only
// ReadSnapshotLazy keeps them as bytes, for the diff.
func TestReadSnapshotDecodesTools(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clean.snapshot.json")
	if err := WriteSnapshot(path, recordFixture(t, "clean@v1", "")); err != nil {
		t.Fatal(err)
	}
	whole, err := ReadSnapshot(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(whole.Surface.Tools); n != 3 {
		t.Errorf("ReadSnapshot: %d tools decoded, want 3", n)
	}
	lazy, err := ReadSnapshotLazy(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if lazy.Surface.Tools != nil || len(lazy.Surface.RawTools()) != 3 {
		t.Errorf("ReadSnapshotLazy: %d decoded, %d raw, want 0 and 3", len(lazy.Surface.Tools), len(lazy.Surface.RawTools()))
	}
}
