package overlays

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/keymap"
	"github.com/mcpward/mcpward/internal/tui/store"
	"github.com/mcpward/mcpward/internal/tui/styles"
)

// TestSummaryBaseline pins the lines above the cost table: each finding
// with its tier, kind and tool, and the command that accepts them for the
// session's own log.
func TestSummaryBaseline(t *testing.T) {
	findings := []diff.Finding{
		{RuleID: "tool.removed", Tier: diff.Breaking, Subject: `tool "rm -rf"`},
		{RuleID: "annotation.readOnlyHint.revoked", Tier: diff.Breaking, Subject: `tool "read"`},
	}
	tests := []struct {
		name  string
		drift store.Drift
		log   string
		want  []string
	}{
		{"not checked", store.Drift{}, "", nil},
		{"no baseline", store.Drift{Checked: true}, "",
			[]string{"baseline     none recorded for this server (mcpward sessions baseline records one)"}},
		{"no drift", store.Drift{Checked: true, Found: true}, "",
			[]string{"baseline     no drift from the recorded tool definitions"}},
		{"drift", store.Drift{Checked: true, Found: true, Findings: findings}, "/state/sessions/it's here.jsonl",
			[]string{
				"drift        2 tool definition changes since the baseline",
				"  breaking   tool.removed                       rm -rf",
				"  breaking   annotation.readOnlyHint.revoked    read",
				`  accept them: mcpward sessions baseline --accept '/state/sessions/it'\''s here.jsonl'`,
			}},
		{"one finding, plain log path", store.Drift{Checked: true, Found: true, Findings: findings[:1]}, "/state/sessions/a-1.jsonl",
			[]string{
				"drift        1 tool definition change since the baseline",
				"  breaking   tool.removed                       rm -rf",
				"  accept them: mcpward sessions baseline --accept /state/sessions/a-1.jsonl",
			}},
		{"unusable baseline", store.Drift{Checked: true, Found: true, Findings: findings, Err: errors.New("read baseline b.json: format version 9 is newer")}, "",
			[]string{"baseline     cannot be used: read baseline b.json: format version 9 is newer"}},
	}
	c := common.Common{Width: 100, Height: 30, Styles: styles.New(true, true), KeyMap: keymap.Default(), Now: time.Now}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, plain := Summary(c, calls.Summary{}, tt.drift, tt.log)
			var got []string
			for _, l := range plain {
				if strings.HasPrefix(l, "definitions") {
					break
				}
				if l != "" {
					got = append(got, l)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Summary() baseline lines mismatch (-want +got):\n%s", d)
			}
		})
	}
}
