package diffcmd

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpward/mcpward/internal/cli/cmdtest"
)

func TestNewCmdDiffFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    DiffOptions
		wantErr string
	}{
		{"defaults", []string{"a.json", "b.json"}, DiffOptions{OldPath: "a.json", NewPath: "b.json", FailOn: "risky", Format: "text"}, ""},
		{"json", []string{"a", "b", "--json"}, DiffOptions{OldPath: "a", NewPath: "b", FailOn: "risky", Format: "json"}, ""},
		{"gate", []string{"a", "b", "--fail-on", "cosmetic", "--only", "breaking,risky", "--ignore", "tool.added", "--ignore", "order.changed", "--migrate", "--format", "sarif"},
			DiffOptions{OldPath: "a", NewPath: "b", FailOn: "cosmetic", Only: []string{"breaking", "risky"}, Ignore: []string{"tool.added", "order.changed"}, Migrate: true, Format: "sarif"}, ""},
		{"one arg", []string{"a"}, DiffOptions{}, "accepts 2 arg(s), received 1"},
		{"bad tier", []string{"a", "b", "--fail-on", "severe"}, DiffOptions{}, `--fail-on: unknown tier "severe" (want breaking, risky, compatible, cosmetic, or any: any surface change)`},
		{"bad only", []string{"a", "b", "--only", "x"}, DiffOptions{}, `--only: unknown tier "x" (want breaking, risky, compatible or cosmetic)`},
		{"bad format", []string{"a", "b", "--format", "html"}, DiffOptions{}, `unknown --format "html" (formats: text, json, md, github, sarif, junit)`},
		{"json vs format", []string{"a", "b", "--json", "--format", "md"}, DiffOptions{}, `--json and --format md disagree`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(t, NewCmdDiff, tt.args...)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, *got, cmpopts.IgnoreFields(DiffOptions{}, "IO", "Version")); d != "" {
				t.Errorf("opts mismatch (-want +got):\n%s", d)
			}
		})
	}
}
