package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/snapshot"
)

func TestBehaviourExplainedBySchema(t *testing.T) {
	code := int64(-32602)
	tool := func(name string, required ...any) snapshot.Object {
		return snapshot.Object{"name": name, "inputSchema": map[string]any{"type": "object", "required": required}}
	}
	ok := &snapshot.Behavior{ResultType: "complete"}
	failing := func(tool string, args ...string) *snapshot.Behavior {
		return &snapshot.Behavior{Tool: tool, ArgumentKeys: args, IsError: true, ErrorCode: &code}
	}
	withTool := func(b *snapshot.Behavior, tool string, args ...string) *snapshot.Behavior {
		c := *b
		c.Tool, c.ArgumentKeys = tool, args
		return &c
	}
	tests := []struct {
		name     string
		old, new snapshot.Surface
		want     []string
	}{
		{
			name: "removed tool: only tool.removed",
			old:  snapshot.Surface{Tools: []snapshot.Object{tool("a")}, Behavior: map[string]*snapshot.Behavior{"p": withTool(ok, "a")}},
			new:  snapshot.Surface{Tools: []snapshot.Object{}, Behavior: map[string]*snapshot.Behavior{"p": failing("a")}},
			want: []string{"tool.removed"},
		},
		{
			name: "new required input the probe does not send: only the schema finding",
			old:  snapshot.Surface{Tools: []snapshot.Object{tool("a", "x")}, Behavior: map[string]*snapshot.Behavior{"p": withTool(ok, "a", "x")}},
			new:  snapshot.Surface{Tools: []snapshot.Object{tool("a", "x", "date")}, Behavior: map[string]*snapshot.Behavior{"p": failing("a", "x")}},
			want: []string{"tool.input.required.added"},
		},
		{
			name: "new required input the probe sends: the failure is news",
			old:  snapshot.Surface{Tools: []snapshot.Object{tool("a", "x")}, Behavior: map[string]*snapshot.Behavior{"p": withTool(ok, "a", "date", "x")}},
			new:  snapshot.Surface{Tools: []snapshot.Object{tool("a", "x", "date")}, Behavior: map[string]*snapshot.Behavior{"p": failing("a", "date", "x")}},
			want: []string{"behavior.error.appeared", "tool.input.required.added"},
		},
		{
			name: "unchanged schema: the failure is news",
			old:  snapshot.Surface{Tools: []snapshot.Object{tool("a")}, Behavior: map[string]*snapshot.Behavior{"p": withTool(ok, "a")}},
			new:  snapshot.Surface{Tools: []snapshot.Object{tool("a")}, Behavior: map[string]*snapshot.Behavior{"p": failing("a")}},
			want: []string{"behavior.error.appeared"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Diff(&snapshot.Snapshot{Surface: tt.old}, &snapshot.Snapshot{Surface: tt.new}) {
				got = append(got, f.RuleID)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("rule ids mismatch (-want +got):\n%s", d)
			}
		})
	}
}
