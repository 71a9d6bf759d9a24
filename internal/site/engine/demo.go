package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

// The demo's pair, as snapgauge's /demo runs it: the baseline fixture and
// the one it drifted to, both embedded in the engine.
const (
	DemoOld = "clean@v1"
	DemoNew = "drift-breaking@v2"
)

// DemoRecordedAt pins the demo snapshots' recordedAt, so two runs give the
// same Result.
var DemoRecordedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Demo records the embedded fixtures [DemoOld] and [DemoNew] in process,
// as `mcpward record --fixture NAME` does (both under DemoOld's probes, so
// their probe hashes match), and diffs them with the default gate
// (fail-on risky), as `mcpward diff` does. Nothing is installed, dropped
// or fetched: the fixture servers are part of the engine.
func Demo(ctx context.Context, version string) (*Report, error) {
	r, err := DemoResult(ctx, version)
	if err != nil {
		return nil, err
	}
	return NewReport(r)
}

// DemoResult is Demo's Result.
func DemoResult(ctx context.Context, version string) (*result.Result, error) {
	old, err := demoRecord(ctx, DemoOld, version)
	if err != nil {
		return nil, err
	}
	cur, err := demoRecord(ctx, DemoNew, version)
	if err != nil {
		return nil, err
	}
	failOn, err := verdict.ParseFailOn("")
	if err != nil {
		return nil, err
	}
	return verdict.Compare(&verdict.Comparison{
		Command:     "diff",
		Version:     version,
		Old:         old,
		New:         cur,
		OldPath:     DemoOld,
		NewPath:     DemoNew,
		FindingFile: DemoNew,
		Gate:        verdict.Gate{FailOn: failOn},
		Problems:    append(verdict.SideProblems("old", old), verdict.SideProblems("new", cur)...),
	}), nil
}

func demoRecord(ctx context.Context, fx, version string) (*snapshot.Snapshot, error) {
	tg, err := contract.FromEntry(fx, &config.Target{Fixture: fx}, &connect.Source{})
	if err != nil {
		return nil, err
	}
	if tg.Probes, err = contract.FixtureProbes(DemoOld); err != nil {
		return nil, err
	}
	obs, err := contract.Observe(ctx, tg, &contract.ObserveOptions{Version: version, Now: func() time.Time { return DemoRecordedAt }})
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", fx, err)
	}
	if !obs.Complete() {
		return nil, newError(fmt.Errorf("record %s: incomplete: %s", fx, obs.Problems[0]), "")
	}
	return obs.Snapshot, nil
}
