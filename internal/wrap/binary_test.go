package wrap

import (
	"strings"
	"testing"
)

func TestTransientBinary(t *testing.T) {
	vars := map[string]string{"TMPDIR": "/var/folders/xy/T/"}
	env := Env{GOOS: "linux", Home: "/home/u", LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }}
	tests := []struct {
		bin, want string
	}{
		{"/usr/local/bin/mcpward", ""},
		{"/home/u/go/bin/mcpward", ""},
		{"/home/u/src/mcpward/mcpward", ""},
		{"/tmp/go-build3312/b001/exe/mcpward", "'go run' built"},
		{"/home/u/.cache/go-build/ab/abcdef-d/mcpward", "Go build cache (/home/u/.cache/go-build)"},
		{"/tmp/x/mcpward", "temporary directory (/tmp)"},
		{"/var/folders/xy/T/TestScript123/.bin/mcpward", "temporary directory (/var/folders/xy/T/)"},
		{"/tmpfoo/mcpward", ""},
	}
	for _, tt := range tests {
		got := TransientBinary(tt.bin, env)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("TransientBinary(%q) = %q, want %q", tt.bin, got, tt.want)
		}
	}
	// GOCACHE wins over the default; "off" has none.
	vars["GOCACHE"] = "/build/cache"
	if got := TransientBinary("/build/cache/x/mcpward", env); !strings.Contains(got, "Go build cache") {
		t.Errorf("GOCACHE: %q", got)
	}
	vars["GOCACHE"] = "off"
	if got := TransientBinary("/home/u/.cache/go-build/x/mcpward", env); got != "" {
		t.Errorf("GOCACHE=off: %q", got)
	}
}
