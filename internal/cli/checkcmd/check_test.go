package checkcmd

import (
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpward/mcpward/internal/cli/cmdtest"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/fleetrun"
	"github.com/mcpward/mcpward/internal/client"
)

func TestNewCmdCheckFlags(t *testing.T) {
	def := client.DefaultRequestTimeout
	tf := cmdutil.TargetFlags{Timeout: def}
	ff := fleetrun.Flags{Jobs: runtime.NumCPU(), TargetTimeout: fleetrun.DefaultTargetTimeout}
	tests := []struct {
		name    string
		args    []string
		want    CheckOptions
		wantErr string
	}{
		{"defaults", nil, CheckOptions{Reporter: "text", Target: tf, Fleet: ff}, ""},
		{"named with gate", []string{"weather", "--fail-on", "breaking", "--only", "breaking", "--ignore", "tool.removed,transport.origin_invalid_not_403", "--update", "--migrate", "--reporter", "github"},
			CheckOptions{Name: "weather", FailOn: "breaking", Only: []string{"breaking"}, Ignore: []string{"tool.removed", "transport.origin_invalid_not_403"}, Update: true, Migrate: true, Reporter: "github", Target: tf, Fleet: ff}, ""},
		{"json", []string{"--json"}, CheckOptions{Reporter: "json", Target: tf, Fleet: ff}, ""},
		{"snapshot form", []string{"base.json", "--", "node", "s.js"},
			CheckOptions{SnapshotPath: "base.json", Reporter: "text", Target: cmdutil.TargetFlags{Command: []string{"node", "s.js"}, Timeout: def}, Fleet: ff}, ""},
		{"flags form", []string{"demo", "--fixture", "drift-breaking@v2", "--dir", "d", "--recorded-at", "2026-01-01T00:00:00Z"},
			CheckOptions{Name: "demo", Dir: "d", Reporter: "text", RecordedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Target: cmdutil.TargetFlags{Fixture: "drift-breaking@v2", Timeout: def}, Fleet: ff}, ""},
		{"snapshot without server", []string{"base.json"}, CheckOptions{}, "check base.json needs the server: add --fixture NAME, --url URL or -- <command…>"},
		{"flags without name", []string{"--fixture", "x"}, CheckOptions{}, "name the target: mcpward check NAME --fixture/--url/-- <command…>, or check SNAPSHOT.json -- <command…>"},
		{"bad reporter", []string{"--reporter", "xml"}, CheckOptions{}, `unknown --format "xml" (did you mean md? formats: text, json, md, github, sarif, junit)`},
		{"json vs reporter", []string{"--json", "--reporter", "md"}, CheckOptions{}, "--json and --format md disagree"},
		{"bad fail-on", []string{"--fail-on", "x"}, CheckOptions{}, `--fail-on: unknown tier "x" (want breaking, risky, compatible, cosmetic, or any: any surface change)`},
		{"bad name", []string{"../x"}, CheckOptions{}, `target name "../x" is not allowed (letters, digits and . _ @ - only: it becomes a file name)`},
		{"all", []string{"--all", "--jobs", "3", "--target-timeout", "1m", "--config", "c.json", "--format", "sarif"},
			CheckOptions{ConfigPath: "c.json", Reporter: "sarif", Target: tf, Fleet: fleetrun.Flags{All: true, Jobs: 3, TargetTimeout: time.Minute}}, ""},
		{"several names", []string{"b", "a"}, CheckOptions{Names: []string{"b", "a"}, Reporter: "text", Target: tf, Fleet: ff}, ""},
		{"jobs zero", []string{"--all", "--jobs", "0"}, CheckOptions{}, "--jobs must be at least 1, got 0"},
		{"jobs negative", []string{"--all", "--jobs", "-2"}, CheckOptions{}, "--jobs must be at least 1, got -2"},
		{"jobs alone", []string{"weather", "--jobs", "2"}, CheckOptions{}, "--jobs applies only to several targets (--all, or two or more NAMEs)"},
		{"all with name", []string{"--all", "weather"}, CheckOptions{}, `--all runs every target of the config: name none (got "weather")`},
		{"all with fixture", []string{"--all", "--fixture", "clean@v1"}, CheckOptions{}, "several targets come from the config: --fixture, --url and -- <command…> do not apply"},
		{"name twice", []string{"a", "b", "a"}, CheckOptions{}, `target "a" is named twice`},
		{"snapshot among names", []string{"a", "b.json"}, CheckOptions{}, `"b.json" is not a target name (letters, digits and . _ @ - only; a SNAPSHOT.json is checked alone)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(t, NewCmdCheck, tt.args...)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, *got, cmpopts.IgnoreFields(CheckOptions{}, "IO", "Env", "Now", "Version", "Compat")); d != "" {
				t.Errorf("opts mismatch (-want +got):\n%s", d)
			}
		})
	}
}
