package transport

import (
	"context"
	"net/http"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// A Call is one outgoing frame and how to send it.
type Call struct {
	// Frame is the exact bytes of one JSON-RPC message (or deliberately
	// arbitrary bytes), without a trailing newline. It is sent verbatim;
	// stream transports append "\n".
	Frame []byte

	// ID is the request id to wait for. The zero ID means no reply is
	// expected (a notification, or junk bytes): Call returns once the frame
	// is written (stdio) or the HTTP response is read (HTTP).
	ID jsonrpc.ID

	// Header holds extra HTTP headers for this request (HTTP only; ignored
	// by stream transports). Values replace defaults of the same name.
	Header http.Header

	// HTTPMethod overrides POST (HTTP only), e.g. GET or DELETE for
	// transport assertions.
	HTTPMethod string

	// Bare suppresses every default header (Content-Type, Accept, the
	// session id, the user's --header values): only Header is sent. For
	// deliberately wrong requests (HTTP only).
	Bare bool
}

// A Reply is what came back for one Call.
type Reply struct {
	// Response is the message whose id matched Call.ID; nil for
	// notifications, or when the HTTP body held no matching message.
	Response *jsonrpc.Message

	// Related are other messages received while waiting, in arrival order:
	// notifications (progress, log), server requests (ping, sampling), and
	// on HTTP every other message of the same response body.
	Related []jsonrpc.Message

	// HTTP describes the HTTP exchange; nil on stream transports.
	HTTP *HTTPInfo
}

// HTTPInfo is the HTTP side of a Reply. A non-2xx status is not an error of
// Call: rules need to see 400s, 404s, 405s and 401s.
type HTTPInfo struct {
	Status      int
	Header      http.Header
	ContentType string
	// Body is the raw response body, capped at the transport's limit.
	Body []byte
	// Truncated is true when the body exceeded the cap.
	Truncated bool
	// Events are the SSE events of a text/event-stream body.
	Events []jsonrpc.Event
}

// A Conn is a connection to one MCP server.
//
// Call may be used concurrently by several goroutines. Close ends the
// connection (for a child process: close stdin, SIGTERM, SIGKILL) and waits
// for its goroutines and processes to finish; it is safe to call twice.
type Conn interface {
	Call(ctx context.Context, c *Call) (*Reply, error)
	Close() error
	// Kind is "stdio", "http", "sse" or "fixture".
	Kind() string
}
