package client

import (
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
)

// AnswerServerRequest is the OnServerRequest hook for transports: it
// answers a server's ping promptly with {} (legacy servers may drop a
// client that does not) and declines every other server request with
// -32601, since a prober declares no client capabilities that would make
// sampling, roots or elicitation legitimate.
func AnswerServerRequest(m jsonrpc.Message) []byte {
	if m.Kind != jsonrpc.KindRequest {
		return nil
	}
	var (
		b   []byte
		err error
	)
	if m.Method == mcp.MethodPing {
		b, err = jsonrpc.EncodeResult(m.ID, struct{}{})
	} else {
		b, err = jsonrpc.EncodeError(m.ID, mcp.CodeMethodNotFound, "mcpward does not serve "+m.Method, nil)
	}
	if err != nil {
		return nil
	}
	return b
}
