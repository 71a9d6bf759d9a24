package fleetrun

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fleet"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/syserr"
)

// The errors a fleet section meets map as at the top level
// (result.ExitCode), a flag error and a deadline included.
func TestExitCodeOfFleetErrors(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want int
	}{
		{fault.Input(errors.New("no stored snapshot")), result.Usage},
		{fault.Incomplete(errors.New("timeout")), result.Incomplete},
		{cmdutil.FlagErrorf("bad"), result.Usage},
		{fmt.Errorf("observe: %w", context.Canceled), result.Incomplete},
		{context.DeadlineExceeded, result.Incomplete},
		{errors.New("nil map"), result.Internal},
	} {
		if got := result.ExitCode(tt.err, syserr.Refused); got != tt.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestFleetSection(t *testing.T) {
	tg := &result.Target{Name: "api"}
	done := &result.Result{Target: tg, Evidence: result.Evidence{Complete: true}, ExitCode: result.Drift}
	partial := &result.Result{Target: tg, Evidence: result.Evidence{Complete: false}, ExitCode: result.Incomplete}
	for _, tt := range []struct {
		name      string
		state     fleet.State
		r         *result.Result
		err       error
		stack     []byte
		wantCode  int
		wantError string
		wantHint  string
	}{
		{"done", fleet.Done, done, nil, nil, result.Drift, "", ""},
		// Finished with complete evidence as the deadline passed: it stands.
		{"complete at the deadline", fleet.TimedOut, done, nil, nil, result.Drift, "", ""},
		{"timed out", fleet.TimedOut, partial, nil, nil, result.Incomplete, "did not finish within --target-timeout 1m0s", "raise --target-timeout, or find out why the server is this slow"},
		{"interrupted", fleet.Interrupted, nil, context.Canceled, nil, result.Incomplete, "interrupted before its run finished", ""},
		{"error with hint", fleet.Done, nil, fault.WithHint(fault.Input(errors.New("no stored snapshot\nfor api")), "run 'mcpward record api' first"), nil,
			result.Usage, "no stored snapshot for api", "run 'mcpward record api' first"},
		{"panic", fleet.Done, nil, errors.New("panic: boom"), []byte("goroutine 1"), result.Internal, "internal error: panic: boom", "this is a bug in mcpward; please report it with the command you ran"},
		{"nothing", fleet.Done, nil, nil, nil, result.Internal, "internal error: the run returned no result", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := Section("check", "dev", tg, tt.state, time.Minute, tt.r, tt.err, tt.stack)
			if s.ExitCode != tt.wantCode || s.Error != tt.wantError || s.Hint != tt.wantHint {
				t.Errorf("got exit %d error %q hint %q, want %d %q %q", s.ExitCode, s.Error, s.Hint, tt.wantCode, tt.wantError, tt.wantHint)
			}
			if s.Target != tg || (tt.r == nil && s.Findings == nil) {
				t.Errorf("section lost its target or has nil findings: %+v", s)
			}
		})
	}
}

func TestFleetVerdict(t *testing.T) {
	sec := func(name string, code int) result.Result {
		return result.Result{Target: &result.Target{Name: name}, ExitCode: code, Findings: []result.Finding{}}
	}
	for _, tt := range []struct {
		secs     []result.Result
		wantCode int
		reason   string
	}{
		{[]result.Result{sec("a", 0), sec("b", 0)}, 0, ""},
		{[]result.Result{sec("a", 1), sec("b", 3)}, 3, ""},
		{[]result.Result{sec("a", 2), sec("b", 3), sec("c", 2)}, 2, "missing evidence is never 'no change': 2 of 3 targets incomplete (a, c), nothing compared as unchanged"},
		{[]result.Result{sec("a", 2), sec("b", 4)}, 4, "1 of 2 targets could not be judged: b (see the report)"},
		{[]result.Result{sec("a", 5), sec("b", 4), sec("c", 4), sec("d", 4), sec("e", 4), sec("f", 4), sec("g", 4)}, 5, "7 of 7 targets could not be judged: a, b, c, d, e and 2 more (see the report)"},
	} {
		err := Verdict(result.Combine("check", "dev", tt.secs), "nothing compared as unchanged")
		var v *cmdutil.VerdictError
		switch {
		case tt.wantCode == 0 && err != nil:
			t.Errorf("%v: err %v, want nil", tt.secs, err)
		case tt.wantCode != 0 && (!errors.As(err, &v) || v.Code != tt.wantCode || v.Reason != tt.reason):
			t.Errorf("err %#v, want code %d reason %q", err, tt.wantCode, tt.reason)
		}
	}
}
