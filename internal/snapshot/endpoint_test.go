package snapshot

import "testing"

func TestTargetInfoEndpoint(t *testing.T) {
	tests := []struct {
		name string
		ti   TargetInfo
		want string
	}{
		{"fixture", TargetInfo{Transport: "fixture", Fixture: "clean@v1"}, "clean@v1"},
		{"http", TargetInfo{Transport: "http", URL: "http://127.0.0.1:9/mcp"}, "http://127.0.0.1:9/mcp"},
		{"sse", TargetInfo{Transport: "sse", URL: "http://127.0.0.1:9/sse"}, "http://127.0.0.1:9/sse"},
		{"stdio", TargetInfo{Transport: "stdio", Command: "node", Args: []string{"server.js", "--x"}}, "node server.js --x"},
		{"stdio no args", TargetInfo{Transport: "stdio", Command: "srv"}, "srv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.ti.Endpoint(); got != tt.want {
				t.Errorf("Endpoint() = %q, want %q", got, tt.want)
			}
		})
	}
}
