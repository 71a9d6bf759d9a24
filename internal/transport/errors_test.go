package transport

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStderrBlock pins issue 13 item 8: a failed server's stderr is shown
// as its last lines, once, under a heading (it used to be the last line
// only, twice).
func TestStderrBlock(t *testing.T) {
	var many []string
	for i := 1; i <= 12; i++ {
		many = append(many, fmt.Sprintf("line%d", i))
	}
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{"nothing", "", 10, ""},
		{"blank", "\n  \n", 10, ""},
		{"one", "Error: ACME_TOKEN is not set\n", 10, "server stderr:\n  Error: ACME_TOKEN is not set\n"},
		{"three", "line1\nline2\r\n\nline3", 10, "server stderr (3 lines):\n  line1\n  line2\n  line3\n"},
		{"last ten", strings.Join(many, "\n") + "\n", 10, "server stderr (last 10 of 12 lines):\n  line3\n  line4\n  line5\n  line6\n  line7\n  line8\n  line9\n  line10\n  line11\n  line12\n"},
		{"long line", strings.Repeat("x", 300), 10, "server stderr:\n  " + strings.Repeat("x", 200) + "…\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, StderrBlock([]byte(tt.in), tt.max)); d != "" {
				t.Errorf("StderrBlock() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestStderrOf(t *testing.T) {
	exit := &ExitError{Code: 1, Stderr: []byte("from exit\n")}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"none", errors.New("x"), ""},
		{"exit error", fmt.Errorf("connect: %w", exit), "from exit\n"},
		{"outer wins", &StderrError{Err: fmt.Errorf("initialize: %w", exit), Stderr: []byte("full\nfrom exit\n")}, "full\nfrom exit\n"},
		{"empty outer", &StderrError{Err: exit, Stderr: []byte(" \n")}, "from exit\n"},
	}
	for _, tt := range tests {
		if got := string(StderrOf(tt.err)); got != tt.want {
			t.Errorf("%s: StderrOf() = %q, want %q", tt.name, got, tt.want)
		}
	}
	se := &StderrError{Err: exit, Stderr: []byte("x")}
	if se.Error() != exit.Error() || strings.Contains(se.Error(), "x\n") || !errors.Is(se, ErrExited) {
		t.Errorf("StderrError must keep the wrapped message and kind: %q", se)
	}
}
