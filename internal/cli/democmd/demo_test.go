package democmd

import (
	"testing"

	"github.com/mcpward/mcpward/internal/cli/cmdtest"
)

func TestNewCmdDemoFlags(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		base, next string
		strict     bool
		wantErr    string
	}{
		{"defaults", nil, "clean@v1", "drift-breaking@v2", false, ""},
		{"strict other pair", []string{"--strict", "--next", "drift-steering@v2"}, "clean@v1", "drift-steering@v2", true, ""},
		{"no args", []string{"x"}, "", "", false, `unknown command "x" for "demo"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(t, NewCmdDemo, tt.args...)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Base != tt.base || got.Next != tt.next || got.Strict != tt.strict {
				t.Errorf("opts = %q %q %v, want %q %q %v", got.Base, got.Next, got.Strict, tt.base, tt.next, tt.strict)
			}
		})
	}
}
