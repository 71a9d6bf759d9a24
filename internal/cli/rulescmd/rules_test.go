package rulescmd

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/iostreams"
	catalogue "github.com/mcpward/mcpward/internal/rules"
)

func TestNewCmdRulesFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    RulesOptions
		wantErr string
	}{
		{args: nil, want: RulesOptions{Format: "text"}},
		{args: []string{"-f", "tsv"}, want: RulesOptions{Format: "tsv"}},
		{args: []string{"--json", "--group", "xhdr"}, want: RulesOptions{Format: "json", Group: "xhdr"}},
		{args: []string{"cache.hints_missing"}, want: RulesOptions{Format: "text", ID: "cache.hints_missing"}},
		{args: []string{"--group", "nope"}, wantErr: "unknown --group"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			var got *RulesOptions
			cmd := NewCmdRules(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *RulesOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			_, err := cmd.ExecuteC()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.IO = nil
			if d := cmp.Diff(tt.want, *got); d != "" {
				t.Errorf("opts (-want +got):\n%s", d)
			}
		})
	}
}

func TestRulesRun(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	if err := rulesRun(&RulesOptions{IO: ios, Format: "json", Group: "xhdr"}); err != nil {
		t.Fatal(err)
	}
	var list []catalogue.Rule
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	for _, r := range list {
		if r.Group != "xhdr" {
			t.Errorf("--group xhdr listed %s", r.ID)
		}
	}
	ios, _, out, _ = iostreams.Test()
	if err := rulesRun(&RulesOptions{IO: ios}); err != nil {
		t.Fatal(err)
	}
	if n, want := strings.Count(out.String(), "\n"), len(catalogue.All())+len(diff.Rules()); n != want {
		t.Errorf("piped output has %d lines, want %d (conformance and diff rules)", n, want)
	}
	ios, _, out, _ = iostreams.Test()
	ios.SetStdoutTTY(true)
	if err := rulesRun(&RulesOptions{IO: ios, ID: "transport.cache_hints_missing"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "cache.hints_missing\n") || !strings.Contains(out.String(), "aliases: transport.cache_hints_missing") {
		t.Errorf("single rule output:\n%s", out)
	}
	if err := rulesRun(&RulesOptions{IO: ios, ID: "nope"}); err == nil {
		t.Error("unknown id accepted")
	}
}

// TestEveryRuleLooksUp pins issue 13 item 4: every id anyone sees, from
// the conformance, traffic and diff catalogues, can be looked up by
// `mcpward rules ID`.
func TestEveryRuleLooksUp(t *testing.T) {
	var ids []string
	for _, r := range catalogue.All() {
		ids = append(ids, r.ID)
		ids = append(ids, r.Aliases...)
	}
	for _, r := range diff.Rules() {
		ids = append(ids, r.ID)
	}
	if len(diff.Rules()) < 95 {
		t.Fatalf("only %d diff rules", len(diff.Rules()))
	}
	for _, id := range ids {
		ios, _, out, _ := iostreams.Test()
		if err := rulesRun(&RulesOptions{IO: ios, Format: "text", ID: id}); err != nil {
			t.Errorf("rules %s: %v", id, err)
			continue
		}
		if !strings.Contains(out.String(), "meaning: ") {
			t.Errorf("rules %s printed no meaning:\n%s", id, out)
		}
	}
	ios, _, out, _ := iostreams.Test()
	if err := rulesRun(&RulesOptions{IO: ios, Format: "text", ID: "tool.removed"}); err != nil {
		t.Fatal(err)
	}
	want := "tool.removed\n  group:   diff\n  tier:    breaking\n  meaning: a tool in old is missing in new\n" +
		"  why:     a client holding the old contract calls it and fails\n  origin:  snapgauge\n"
	if d := cmp.Diff(want, out.String()); d != "" {
		t.Errorf("rules tool.removed mismatch (-want +got):\n%s", d)
	}
}
