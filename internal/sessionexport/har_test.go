package sessionexport

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcpward/mcpward/internal/session"
)

// TestHARURLWithoutTarget: an HTTP session recorded without its upstream
// URL (mcpsnoop's logs, labelled host:port) gets its request URL from the
// Host header, else the label when it is a host, not http://unknown.
func TestHARURLWithoutTarget(t *testing.T) {
	tests := []struct {
		name, label string
		header      map[string][]string
		want        string
	}{
		{"label host:port", "127.0.0.1:8080", nil, "http://127.0.0.1:8080"},
		{"Host header first", "127.0.0.1:8080", map[string][]string{"Host": {"mcp.example:9000"}}, "http://mcp.example:9000"},
		{"a label that is no host", "my server/1", nil, "http://unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			x, err := New(&out, &Options{Format: "har", Version: "test", Log: "run.jsonl"})
			if err != nil {
				t.Fatal(err)
			}
			req := record("S1", 1, session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			req.Label, req.Transport, req.Method, req.Header = tt.label, session.HTTP, "POST", tt.header
			resp := record("S1", 2, session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)
			resp.Label, resp.Transport, resp.Status = tt.label, session.HTTP, 200
			x.Add(req, 1)
			x.Add(resp, 2)
			if err := x.Finish(nil, 2); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Log struct {
					Entries []struct {
						Request struct {
							URL string `json:"url"`
						} `json:"request"`
					} `json:"entries"`
				} `json:"log"`
			}
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Log.Entries) != 1 || doc.Log.Entries[0].Request.URL != tt.want {
				t.Errorf("entries %+v, want one with url %s", doc.Log.Entries, tt.want)
			}
		})
	}
}
