package compat

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/rules"
)

type echoIn struct {
	Text string `json:"text"`
}

// goSDKServer serves a small go-sdk v1.8.0 server over its
// StreamableHTTPHandler on a loopback listener; stateless false is the
// SDK's default (legacy sessions; 2026-07-28 only when stateless).
func goSDKServer(t *testing.T, stateless bool) string {
	t.Helper()
	srv := gosdk.NewServer(&gosdk.Implementation{Name: "gosdk-test", Version: "1.0.0"}, nil)
	gosdk.AddTool(srv, &gosdk.Tool{Name: "echo", Description: "Echoes its text.", Annotations: &gosdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *gosdk.CallToolRequest, in echoIn) (*gosdk.CallToolResult, any, error) {
			return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: in.Text}}}, nil, nil
		})
	h := gosdk.NewStreamableHTTPHandler(func(*http.Request) *gosdk.Server { return srv }, &gosdk.StreamableHTTPOptions{Stateless: stateless})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

// go-sdk's default (stateful) StreamableHTTPHandler answers server/discover
// with a result listing only 2025-11-25 … 2024-11-05 and rejects every
// 2026-07-28 request with a correct 400 -32022. It said it does not serve
// 2026-07-28, so it is legacy: listed through initialize, judged at
// 2025-11-25, and never blamed for its own -32022 (issue 23, item 1). At
// 2025-11-25 a foreign Origin served 200 is a violation (item 6).
func TestGoSDKStatefulHTTPIsLegacy(t *testing.T) {
	url := goSDKServer(t, false)
	s, err := connect.Connect(context.Background(), &connect.Spec{URL: url}, connect.Env{}, &client.Options{RequestTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer s.Close()
	if hs := s.Handshake; hs.Era != mcp.EraLegacy || hs.Version != "2025-11-25" {
		t.Fatalf("handshake %s %s, want legacy 2025-11-25 (steps %v)", hs.Era, hs.Version, hs.Steps)
	}
	rep, err := Run(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	logReport(t, rep)
	if rep.Era != rules.EraLegacy || len(rep.Problems) > 0 || !slices.Equal(rep.Tools, []string{"echo"}) {
		t.Errorf("era %s, tools %v, problems %v; want legacy, [echo], none", rep.Era, rep.Tools, rep.Problems)
	}
	var got []string
	for _, f := range rep.Findings() {
		if f.Class != rules.Info {
			got = append(got, f.Class+" "+f.RuleID)
		}
	}
	if want := []string{"violation transport.origin_invalid_not_403"}; !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}
