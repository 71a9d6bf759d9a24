package fleetrun

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/fault"
)

// TestFleetTargets: --all takes the config's targets in file order, named
// targets are checked to exist, and every way to name nothing is an input
// error rather than an empty pass.
func TestFleetTargets(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	two := write("two.json", `{"targets": {"zeta": {"fixture": "weather"}, "alpha": {"fixture": "weather"}}}`)
	none := write("none.json", `{"targets": {}}`)
	for _, tt := range []struct {
		name    string
		path    string
		all     bool
		names   []string
		want    []string
		wantErr error
	}{
		{"all in file order", two, true, nil, []string{"zeta", "alpha"}, nil},
		{"named", two, false, []string{"alpha"}, []string{"alpha"}, nil},
		{"unknown name", two, false, []string{"alpha", "beta"}, nil, fault.ErrInput},
		{"all of none", none, true, nil, nil, config.ErrNoTarget},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, got, err := Targets(tt.path, tt.all, tt.names)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !errors.Is(err, fault.ErrInput) {
					t.Fatalf("Targets() err = %v, want %v (an input error)", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Targets() mismatch (-want +got):\n%s", d)
			}
		})
	}
	if _, _, err := Targets(filepath.Join(dir, "missing.json"), true, nil); err == nil || fault.HintOf(err) == "" {
		t.Errorf("a missing config: err = %v, want one with a hint", err)
	}
}
