package client

import (
	"encoding/json"
	"net/http"

	"github.com/mcpward/mcpward/internal/mcp"
)

// Headers returns the MCP HTTP headers the client would send with a
// request of method and params (a JSON object) at the era and version it
// speaks: what a caller that writes the frame itself (fuzz) sends with
// it. nil on stream transports.
func (c *Client) Headers(method string, params json.RawMessage) http.Header {
	c.mu.Lock()
	era, version := c.era, c.version
	c.mu.Unlock()
	if version == "" {
		version = string(c.opts.Version)
	}
	return c.headers(method, params, version, era == mcp.EraModern)
}

// headers returns the MCP HTTP headers for one request (nil on stream
// transports). Modern requests carry MCP-Protocol-Version, Mcp-Method,
// Mcp-Name and, for tools/call, Mcp-Param-* derived from the tool's
// x-mcp-header bindings in the most recent tools/list. Legacy requests carry
// MCP-Protocol-Version from 2025-06-18 on, once negotiated.
func (c *Client) headers(method string, params json.RawMessage, version string, modern bool) http.Header {
	if c.conn.Kind() != "http" {
		return nil
	}
	h := http.Header{}
	if !modern {
		if version != "" && !mcp.Revision(version).Before(mcp.Rev20250618) && method != mcp.MethodInitialize {
			h.Set("MCP-Protocol-Version", version)
		}
		return h
	}
	h.Set("MCP-Protocol-Version", version)
	h.Set("Mcp-Method", method)
	var p struct {
		Name      *string         `json:"name"`
		URI       *string         `json:"uri"`
		TaskID    *string         `json:"taskId"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if len(params) > 0 {
		_ = json.Unmarshal(params, &p) // a malformed body is the caller's choice; send what we can
	}
	var name *string
	if info, ok := mcp.LookupMethod(method); ok {
		switch info.NameHeaderFrom {
		case "params.name":
			name = p.Name
		case "params.uri":
			name = p.URI
		case "params.taskId":
			name = p.TaskID
		}
	}
	if name != nil {
		h.Set("Mcp-Name", mcp.EncodeHeaderValue(*name))
	}
	if method == mcp.MethodToolsCall && p.Name != nil {
		c.mu.Lock()
		b := c.bindings[*p.Name]
		c.mu.Unlock()
		if mcp.ToolHeadersValid(b) {
			if pairs, err := mcp.ParamHeaders(b, p.Arguments); err == nil {
				for _, kv := range pairs {
					h.Set(kv[0], kv[1])
				}
			}
		}
	}
	return h
}

// rememberTools records the x-mcp-header bindings of listed tools, so that
// later tools/call requests carry the right Mcp-Param-* headers (the spec
// says to use the most recently fetched inputSchema).
func (c *Client) rememberTools(page json.RawMessage) {
	var res struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(page, &res) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range res.Tools {
		b, err := mcp.HeaderBindings(t.InputSchema)
		if err != nil {
			continue
		}
		c.bindings[t.Name] = b
	}
}
