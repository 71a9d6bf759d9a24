package compat

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
)

// Canned answers a legacy profile gives to what it declares. They are
// fixed so that reports are reproducible, and harmless: no roots are
// exposed, the sampling answer says it is canned, elicitation is declined.
var (
	cannedRoots    = json.RawMessage(`{"roots":[]}`)
	cannedSampling = json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"mcpward compat: canned sampling answer"},"model":"mcpward-canned","stopReason":"endTurn"}`)
	cannedDecline  = json.RawMessage(`{"action":"decline"}`)
)

// clientSide is the client half of a legacy profile's session: a profile
// that declares roots, sampling or elicitation in initialize must serve
// them, or the server's failure that follows is mcpward's doing, not the
// server's. It answers ping with {}, roots/list with an empty list,
// sampling/createMessage with a canned text, elicitation/create with a
// decline, each only when the profile declares the capability, and
// -32601 otherwise; and it keeps every request and reply for the
// evidence. Its answer method is called from the transport's reader
// goroutine.
type clientSide struct {
	caps *mcp.ClientCapabilities

	mu  sync.Mutex
	log []result.Exchange
}

func newClientSide(p rules.Profile) *clientSide {
	var c mcp.ClientCapabilities
	_ = json.Unmarshal(p.ClientCapabilities(), &c)
	return &clientSide{caps: &c}
}

// answer is the client.Options.ServerRequest hook.
func (c *clientSide) answer(m jsonrpc.Message) []byte {
	if m.Kind != jsonrpc.KindRequest {
		return nil
	}
	var canned json.RawMessage
	switch {
	case m.Method == mcp.MethodPing:
		canned = json.RawMessage(`{}`)
	case m.Method == mcp.MethodRootsList && c.caps.Declares("roots"):
		canned = cannedRoots
	case m.Method == mcp.MethodSamplingCreateMessage && c.caps.Declares("sampling"):
		canned = cannedSampling
	case m.Method == mcp.MethodElicitationCreate && c.caps.Declares("elicitation"):
		canned = cannedDecline
	}
	var (
		b   []byte
		err error
	)
	if canned != nil {
		b, err = jsonrpc.EncodeResult(m.ID, canned)
	} else {
		b, err = jsonrpc.EncodeError(m.ID, mcp.CodeMethodNotFound, "the profile does not declare "+m.Method, nil)
	}
	if err != nil {
		return nil
	}
	c.mu.Lock()
	c.log = append(c.log, result.Exchange{Request: compactJSON(m.Raw), Response: compactJSON(b)})
	c.mu.Unlock()
	return b
}

// take returns the exchanges since the last take.
func (c *clientSide) take() []result.Exchange {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.log)
	c.log = nil
	return out
}

// methods returns the methods of the server's requests in exchanges.
func methods(exs []result.Exchange) []string {
	var out []string
	for _, ex := range exs {
		var r struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(ex.Request, &r) == nil && r.Method != "" {
			out = append(out, r.Method)
		}
	}
	return out
}
