package contract

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
)

// A stdio server that dies asking for credentials is "authentication
// required" for record and check (through Observe) as for inspect: one
// line, incomplete, with a hint; a server that dies for another reason
// keeps its own error. Both keep the stderr for the command to show.
func TestObserveAuthRequired(t *testing.T) {
	for _, tc := range []struct {
		script string
		auth   bool
	}{
		{`echo "error: missing API key" >&2; exit 1`, true},
		{`echo "Please log in first" >&2; exit 3`, true},
		{`echo "boom" >&2; exit 1`, false},
	} {
		tg, err := FromSpec("x", &connect.Spec{Command: []string{"sh", "-c", tc.script}, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		obs, err := Observe(context.Background(), tg, &ObserveOptions{Now: func() time.Time { return pinned }})
		if err != nil {
			t.Fatalf("%s: err = %v, want an incomplete observation", tc.script, err)
		}
		if obs.Complete() || obs.Snapshot != nil || len(obs.Problems) != 1 {
			t.Fatalf("%s: observation %+v, want one problem and no snapshot", tc.script, obs)
		}
		if !errors.Is(obs.Err, fault.ErrIncomplete) {
			t.Errorf("%s: Err = %v, want incomplete (exit 2)", tc.script, obs.Err)
		}
		if len(obs.Stderr) == 0 {
			t.Errorf("%s: the server's stderr is lost", tc.script)
		}
		p := obs.Problems[0]
		if got := obs.AuthRequired(); got != tc.auth {
			t.Errorf("%s: AuthRequired() = %v, want %v (problem %q)", tc.script, got, tc.auth, p)
		}
		if !tc.auth {
			if strings.Contains(p, "authentication") || fault.HintOf(obs.Err) != "" {
				t.Errorf("%s: problem %q hint %q, want the plain failure", tc.script, p, fault.HintOf(obs.Err))
			}
			continue
		}
		if !strings.HasPrefix(p, "authentication required: connect to sh ") || !strings.Contains(p, "the server's stderr asks for credentials: ") || strings.Contains(p, "\n") {
			t.Errorf("%s: problem %q, want one line saying authentication is required and why", tc.script, p)
		}
		if h := fault.HintOf(obs.Err); !strings.Contains(h, "--env") || !strings.Contains(h, "--home") {
			t.Errorf("%s: hint %q does not say how to pass credentials", tc.script, h)
		}
		if err := AuthRequiredError("no snapshot written"); !errors.Is(err, ErrAuthRequired) || !errors.Is(err, fault.ErrIncomplete) || fault.HintOf(err) != AuthHint {
			t.Errorf("AuthRequiredError: %v, hint %q", err, fault.HintOf(err))
		}
	}
}
