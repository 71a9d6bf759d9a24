package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/common"
)

// ErrNoTerminal: the live view reads keys from stdin and draws on stdout,
// so both must be a terminal. Without this check bubbletea fails deep
// inside ("could not create cancelable reader"), which read as a bug.
var ErrNoTerminal = errors.New("the live view needs a terminal: stdin and stdout must not be redirected")

// NeedTerminal returns an input error unless ios's stdin and stdout are
// both a terminal.
func NeedTerminal(ios *iostreams.IOStreams) error {
	if ios.IsStdinTTY() && ios.IsStdoutTTY() {
		return nil
	}
	// An input error (exit 4) with its remedy, which the CLI prints as
	// its hint.
	return fault.WithHint(fault.Input(ErrNoTerminal),
		"run it in a terminal, or use 'mcpward sessions list' and 'mcpward sessions export' for output a program can read")
}

// Run shows the live view of opts on ios's terminal until the user quits
// (or ctx ends). `mcpward ui` and `mcpward demo --ui` run it.
func Run(ctx context.Context, opts Options, ios *iostreams.IOStreams) error {
	if err := NeedTerminal(ios); err != nil {
		return err
	}
	p := tea.NewProgram(New(opts), tea.WithContext(ctx), tea.WithInput(ios.In), tea.WithOutput(ios.Out))
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fmt.Errorf("run the live view: %w", err)
	}
	return nil
}

// BaselinesIn reads the baselines `mcpward sessions baseline` records
// under the state directory; nil (no drift marks) without one.
func BaselinesIn(stateDir string) common.BaselineLoader {
	if stateDir == "" {
		return nil
	}
	dir := session.Layout{Root: stateDir}.Baselines()
	return func(id baseline.Identity) (*baseline.Baseline, error) { return baseline.Read(dir, id) }
}

// TrustIn is BaselinesIn with trust on first use: a server identity with
// no baseline under the state directory gets its first complete tool list
// recorded as one (baseline.TrustOnFirstUse, stamped with now). The live
// view over the hub uses it unless --no-tofu; nil without a state
// directory.
func TrustIn(stateDir string, now func() time.Time) common.BaselineTruster {
	if stateDir == "" {
		return nil
	}
	dir := session.Layout{Root: stateDir}.Baselines()
	return func(cur *baseline.Baseline) (*baseline.Baseline, bool, error) {
		if now != nil {
			cur.RecordedAt = now().UTC().Format(time.RFC3339)
		}
		return baseline.TrustOnFirstUse(dir, cur)
	}
}
