package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		want     int
		wantText string
	}{
		{"success", nil, 0, ""},
		{"printed verdict: drift", cmdutil.Verdict(1), 1, ""},
		{"printed verdict with a reason", &cmdutil.VerdictError{Code: 2, Reason: "surface incomplete"}, 2, "mcpward: surface incomplete\n"},
		{"incomplete evidence", fault.Incomplete(errors.New("server did not answer tools/list within 1s")), 2, "mcpward: server did not answer tools/list within 1s\n"},
		{"wrapped incomplete", fmt.Errorf("inspect: %w", fault.Incomplete(errors.New("exited"))), 2, "mcpward: inspect: exited\n"},
		{"violation", fault.Violation(errors.New("GET answered 200")), 3, "mcpward: GET answered 200\n"},
		{"incomplete beats violation", fault.Incomplete(fault.Violation(errors.New("both"))), 2, "mcpward: both\n"},
		{"bad input file", fault.Input(errors.New("snapshot a.json: not JSON")), 4, "mcpward: snapshot a.json: not JSON\n"},
		{"usage", cmdutil.FlagErrorf("--timeout must be positive"), 4, "mcpward: --timeout must be positive\n"},
		{"hint", fault.WithHint(fault.Input(errors.New("no snapshot")), "run 'mcpward record x' first"), 4, "mcpward: no snapshot\nhint: run 'mcpward record x' first\n"},
		{"multi-line error is one line", fault.Incomplete(errors.New("a\nb")), 2, "mcpward: a b\n"},
		// A deadline is incomplete evidence, as in a fleet (it was 5 here).
		{"deadline is incomplete", fmt.Errorf("list tools: %w", context.DeadlineExceeded), 2, "mcpward: list tools: context deadline exceeded\n"},
		{"interrupted is incomplete", fmt.Errorf("list tools: %w", context.Canceled), 2, "mcpward: list tools: context canceled\n"},
		{"cobra parse error is usage", errors.New("unknown shorthand flag: 'x' in -x"), 4, "mcpward: unknown shorthand flag: 'x' in -x\n"},
		{"unclassified is internal", errors.New("nil map"), 5, "mcpward: nil map\nhint: this looks like a bug in mcpward; please report it with the command you ran\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if got := exitCode(&buf, nil, tt.err); got != tt.want {
				t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.want)
			}
			if buf.String() != tt.wantText {
				t.Errorf("stderr = %q, want %q", buf.String(), tt.wantText)
			}
		})
	}
}

func TestRunUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"no-such-command"}, 4},
		{[]string{"inspect", "--no-such-flag"}, 4},
		{[]string{"inspect"}, 4},
		{[]string{"inspect", "--fixture", "clean@v1", "--url", "http://127.0.0.1:1/"}, 4},
		{[]string{"inspect", "--fixture", "no-such-fixture"}, 4},
		{[]string{"inspect", "--timeout", "0s", "--fixture", "clean@v1"}, 4},
		{[]string{"version"}, 0},
		{[]string{"--version"}, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.args), func(t *testing.T) {
			ios, _, _, stderr := iostreams.Test()
			f := testFactory(ios)
			if got := Run(f, tt.args); got != tt.want {
				t.Errorf("Run(%v) = %d, want %d; stderr:\n%s", tt.args, got, tt.want, stderr)
			}
			if tt.want != 0 && bytes.Count(stderr.Bytes(), []byte("\n")) > 2 {
				t.Errorf("stderr has more than an error line and a hint:\n%s", stderr)
			}
		})
	}
}
