package cli

import (
	"slices"
	"testing"
)

// mcpsnoop's root took shim flags before "--" (mcpsnoop --label x -- cmd):
// so does mcpward's, as `mcpward proxy …`; subcommands, --help and
// --version are left alone.
func TestRewriteShimArgs(t *testing.T) {
	tests := []struct{ args, want []string }{
		{[]string{"--", "srv"}, []string{"proxy", "--", "srv"}},
		{[]string{"--label", "x", "--", "srv", "--label", "y"}, []string{"proxy", "--label", "x", "--", "srv", "--label", "y"}},
		{[]string{"--redact-secrets", "--trace-file=t.jsonl", "--", "srv"}, []string{"proxy", "--redact-secrets", "--trace-file=t.jsonl", "--", "srv"}},
		{[]string{"--label", "x"}, []string{"--label", "x"}}, // no server: the root's usage error
		{[]string{"--help", "--", "x"}, []string{"--help", "--", "x"}},
		{[]string{"--version"}, []string{"--version"}},
		{[]string{"sessions", "list", "--", "x"}, []string{"sessions", "list", "--", "x"}},
		{[]string{"inspect", "--", "srv"}, []string{"inspect", "--", "srv"}},
		{nil, nil},
	}
	for _, tt := range tests {
		if got := rewriteShimArgs(tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("rewriteShimArgs(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}
