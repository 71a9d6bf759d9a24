package session

import (
	"path/filepath"
	"testing"
)

func TestLayout(t *testing.T) {
	l := Layout{Root: filepath.Join("state", "mcpward")}
	for _, tt := range []struct{ got, want string }{
		{l.Sessions(), filepath.Join("state", "mcpward", "sessions")},
		{l.Log("my server", "01JD"), filepath.Join("state", "mcpward", "sessions", FileName("my server", "01JD"))},
		{l.Baselines(), filepath.Join("state", "mcpward", "baselines")},
		{l.Exports(), filepath.Join("state", "mcpward", "exports")},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
