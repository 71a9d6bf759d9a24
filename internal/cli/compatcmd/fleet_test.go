package compatcmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/fleetrun"
	"github.com/mcpward/mcpward/internal/iostreams"
)

// compat over the config's targets: each uses its own profiles, the
// sections follow the config, and on a terminal every section's verdict
// grid is laid out as a table like a one-target run's (tab-separated when
// piped).
func TestCompatFleetRender(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcpward.json")
	cfg := `{"targets": {
  "silent": {"fixture": "degrader-silent", "profiles": ["modern-full", "no-elicitation"]},
  "honest": {"fixture": "degrader-honest", "profiles": ["modern-full"]}
}}`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tty := range []bool{false, true} {
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tty)
		ios.SetTerminalWidth(200)
		opts := &CompatOptions{IO: ios, Now: time.Now, Version: "test", Format: "text", ConfigPath: path,
			Fleet:  fleetrun.Flags{All: true, Jobs: 2, TargetTimeout: time.Minute},
			Target: cmdutil.TargetFlags{Timeout: 5 * time.Second}}
		err := compatRun(context.Background(), opts)
		var v *cmdutil.VerdictError
		if err != nil && !errors.As(err, &v) {
			t.Fatal(err)
		}
		s := out.String()
		silent, honest := strings.Index(s, "==> silent <=="), strings.Index(s, "==> honest <==")
		if silent < 0 || honest < silent {
			t.Fatalf("sections missing or out of config order:\n%s", s)
		}
		if !strings.Contains(s[silent:honest], "profiles: modern-full, no-elicitation\n") || !strings.Contains(s[honest:], "profiles: modern-full\n") {
			t.Errorf("a target's own profiles were not used:\n%s", s)
		}
		if !strings.HasSuffix(s, "2 targets: 2 PASS -> PASS (exit 0)\n") {
			t.Errorf("no fleet verdict line at the end:\n%s", s)
		}
		grid := s[strings.Index(s, "verdicts (tool × profile):"):]
		if tabbed := strings.Contains(grid, "tool\tmodern-full"); tabbed == tty {
			t.Errorf("tty %v: verdict grid tab-separated = %v:\n%s", tty, tabbed, grid)
		}
	}
}

// With no server flags and no NAME, compat uses the config's only target;
// with no config at all it is the usage error it always was.
func TestCompatDefaultTarget(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.json")
	if err := os.WriteFile(one, []byte(`{"targets": {"only": {"fixture": "clean@v1", "profiles": ["modern-full"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ios, _, out, _ := iostreams.Test()
	opts := &CompatOptions{IO: ios, Now: time.Now, Version: "test", Format: "text", ConfigPath: one,
		Target: cmdutil.TargetFlags{Timeout: 5 * time.Second}}
	if err := compatRun(context.Background(), opts); err != nil {
		t.Fatalf("compat --config one.json: %v", err)
	}
	if !strings.Contains(out.String(), "profiles: modern-full\n") {
		t.Errorf("the only target's profiles were not used:\n%s", out)
	}

	t.Chdir(dir) // no mcpward.json here
	opts.ConfigPath = ""
	err := compatRun(context.Background(), opts)
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "no target: use --fixture NAME") {
		t.Errorf("compat without a config: %v, want the usage error", err)
	}
}
