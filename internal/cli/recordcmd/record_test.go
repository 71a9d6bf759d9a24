package recordcmd

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpward/mcpward/internal/cli/cmdtest"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/client"
)

func TestNewCmdRecordFlags(t *testing.T) {
	def := client.DefaultRequestTimeout
	pinned := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		args    []string
		want    RecordOptions
		wantErr string
	}{
		{"config only target", nil, RecordOptions{Target: cmdutil.TargetFlags{Timeout: def}}, ""},
		{"config named", []string{"weather", "--config", "ci/m.json", "--dir", "snaps"}, RecordOptions{Name: "weather", ConfigPath: "ci/m.json", Dir: "snaps", Target: cmdutil.TargetFlags{Timeout: def}}, ""},
		{"fixture shortcut", []string{"demo", "--fixture", "clean@v1", "--dir", "/tmp/d", "--recorded-at", "2026-01-01T00:00:00Z"},
			RecordOptions{Name: "demo", Dir: "/tmp/d", RecordedAt: pinned, Target: cmdutil.TargetFlags{Fixture: "clean@v1", Timeout: def}}, ""},
		{"command", []string{"local", "--timeout", "3s", "--", "node", "s.js"},
			RecordOptions{Name: "local", TimeoutSet: true, Target: cmdutil.TargetFlags{Command: []string{"node", "s.js"}, Timeout: 3 * time.Second}}, ""},
		{"offset time", []string{"x", "--url", "http://127.0.0.1:1/", "--recorded-at", "2026-01-01T01:00:00.5+01:00"},
			RecordOptions{Name: "x", RecordedAt: pinned.Add(500 * time.Millisecond), Target: cmdutil.TargetFlags{URL: "http://127.0.0.1:1/", Timeout: def}}, ""},
		{"fixture without name", []string{"--fixture", "clean@v1"}, RecordOptions{}, "name the snapshot: mcpward record NAME --fixture/--url/-- <command…>"},
		{"bad name", []string{"a/b"}, RecordOptions{}, `target name "a/b" is not allowed (letters, digits and . _ @ - only: it becomes a file name)`},
		{"config with flags", []string{"x", "--fixture", "f", "--config", "m.json"}, RecordOptions{}, "--config and a target given by flags exclude each other"},
		{"bad time", []string{"x", "--fixture", "f", "--recorded-at", "yesterday"}, RecordOptions{}, `--recorded-at "yesterday" is not an RFC 3339 time (e.g. 2026-01-01T00:00:00Z)`},
		{"orphan target flag", []string{"--cwd", "x"}, RecordOptions{}, "target flags need a target: --fixture NAME, --url URL or -- <command…>"},
		{"two names", []string{"a", "b"}, RecordOptions{Names: []string{"a", "b"}, Target: cmdutil.TargetFlags{Timeout: def}}, ""},
		{"all with a name", []string{"a", "--all"}, RecordOptions{}, `--all runs every target of the config: name none (got "a")`},
		{"two names by flags", []string{"a", "b", "--fixture", "f"}, RecordOptions{}, "several targets come from the config: --fixture, --url and -- <command…> do not apply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(t, NewCmdRecord, tt.args...)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, *got, cmpopts.IgnoreFields(RecordOptions{}, "IO", "Env", "Now", "Version", "Fleet")); d != "" {
				t.Errorf("opts mismatch (-want +got):\n%s", d)
			}
		})
	}
}
