package connect

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	none := func(string) bool { return false }
	tests := []struct {
		in      []string
		want    []string
		wantErr bool
	}{
		{[]string{"uv run server.py"}, []string{"uv", "run", "server.py"}, false},
		{[]string{"  npx  -y   @scope/server  "}, []string{"npx", "-y", "@scope/server"}, false},
		{[]string{`python -c 'print("a b")'`}, []string{"python", "-c", `print("a b")`}, false},
		{[]string{`node "my server.js" --name "a \"b\" \$c \x"`}, []string{"node", "my server.js", "--name", `a "b" $c \x`}, false},
		{[]string{`srv a\ b ''`}, []string{"srv", "a b", ""}, false},
		{[]string{"srv\tA=1\nB"}, []string{"srv", "A=1", "B"}, false},
		// Not split: no white space, several words, or an existing file.
		{[]string{"server.py"}, []string{"server.py"}, false},
		{[]string{"uv run", "server.py"}, []string{"uv run", "server.py"}, false},
		{[]string{`srv 'open`}, nil, true},
		{[]string{`srv "open`}, nil, true},
		{[]string{"   "}, nil, true},
	}
	for _, tt := range tests {
		got, err := splitCommand(tt.in, none)
		if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
			t.Errorf("splitCommand(%q) = %q, %v; want %q (error %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestSplitCommandKeepsAnExistingPath(t *testing.T) {
	p := filepath.Join(t.TempDir(), "my server")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := SplitCommand([]string{p})
	if err != nil || !slices.Equal(got, []string{p}) {
		t.Errorf("SplitCommand(%q) = %q, %v; want it whole", p, got, err)
	}
}
