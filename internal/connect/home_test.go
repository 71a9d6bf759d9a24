package connect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --home points the XDG directories under the given HOME too, as
// mcp-surfaceprint did; --env still wins over both.
func TestHomeSetsXDG(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "env.txt")
	home := filepath.Join(dir, "custom-home")
	spec := &Spec{
		Command: []string{"sh", "-c", `printf '%s\n' "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_STATE_HOME" > "$OUT"; read -r _`},
		Env:     []string{"OUT=" + out, "XDG_CACHE_HOME=/from-env"},
		Home:    home,
	}
	env := Env{Environ: func() []string { return []string{"PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=/parent-config"} }}
	conn, _, err := Dial(context.Background(), spec, env)
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{home, home + "/.config", home + "/.local/share", "/from-env", home + "/.local/state"}, "\n") + "\n"
	if string(b) != want {
		t.Errorf("server environment:\n%s\nwant:\n%s", b, want)
	}
}
