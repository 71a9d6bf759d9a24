package probe_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpward/mcpward/internal/connect"
)

type echoIn struct {
	Text string `json:"text"`
}

// go-sdk's default (stateful) StreamableHTTPHandler lists only legacy
// versions in server/discover and answers 2026-07-28 requests with 400
// -32022: inspect and record see a legacy server with its tool, not an
// incomplete modern one with none (issue 23, item 1).
func TestGoSDKStatefulHTTPObservedLegacy(t *testing.T) {
	srv := gosdk.NewServer(&gosdk.Implementation{Name: "gosdk-test", Version: "1.0.0"}, nil)
	gosdk.AddTool(srv, &gosdk.Tool{Name: "echo", Description: "Echoes its text."},
		func(ctx context.Context, req *gosdk.CallToolRequest, in echoIn) (*gosdk.CallToolResult, any, error) {
			return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: in.Text}}}, nil, nil
		})
	ts := httptest.NewServer(gosdk.NewStreamableHTTPHandler(func(*http.Request) *gosdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	s := observe(t, &connect.Spec{URL: ts.URL})
	check(t, s, want{era: "legacy", version: "2025-11-25", tools: 1})
	if got := s.Surface.Discover.SupportedVersions; len(got) != 4 {
		t.Errorf("supported versions %v, want the four legacy revisions", got)
	}
}
