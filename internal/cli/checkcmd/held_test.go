package checkcmd

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// Issue 11 item 11: check judges the evidence its own observation holds.
// degrader-liar's confirm_delete answers input_required asking for
// elicitation although check's probe declares ClientCapabilities {}: a
// MRTR-CAP-GATED violation (exit 3) even when the compat engine, under
// modern-full, provokes nothing.
func TestCheckJudgesHeldEvidence(t *testing.T) {
	dir := t.TempDir()
	tg, err := contract.FromSpec("demo", &connect.Spec{Fixture: "degrader-liar"})
	if err != nil {
		t.Fatal(err)
	}
	obs, err := contract.Observe(context.Background(), tg, &contract.ObserveOptions{Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil || !obs.Complete() {
		t.Fatalf("record: %v %v", err, obs.Problems)
	}
	if err := contract.WriteSnapshot(contract.SnapshotPath(dir, "demo"), obs.Snapshot); err != nil {
		t.Fatal(err)
	}
	ios, _, stdout, _ := iostreams.Test()
	o := opts(ios, dir, "degrader-liar")
	o.Compat = func(context.Context, *contract.Target, *snapshot.Snapshot) ([]result.RuleFinding, *result.Compat, error) {
		return nil, nil, nil
	}
	if got := code(checkRun(context.Background(), o)); got != 3 {
		t.Fatalf("exit %d, want 3\n%s", got, stdout)
	}
	if !strings.Contains(stdout.String(), "degrade.input_required_without_capability probe.confirm-delete") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
