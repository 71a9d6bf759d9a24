// Package transport moves whole JSON-RPC frames between mcpward and an MCP
// server: a stdio child process ([StartStdio]), Streamable HTTP, modern and
// legacy ([NewHTTP]), the deprecated HTTP+SSE transport of 2024-11-05
// ([DialSSE]), and in-process streams ([NewStream], [Pipe]). It sends
// exactly the bytes it is given and hands back exactly the bytes it
// received; it knows framing and correlation by id, not MCP semantics.
//
// Every [Conn] correlates a reply to its request by id, keeping id types
// apart (1 is not "1"). Messages that are not the awaited reply
// (notifications, server requests, junk lines) come back in
// [Reply.Related]; server requests are also answered through the
// OnServerRequest hook of the options. Every frame sent or received can be
// observed through OnFrame, for recording and diagnostics.
//
// # Errors
//
// Errors that mean "the evidence could not be gathered" all satisfy
// errors.Is(err, fault.ErrIncomplete), and one of [ErrTimeout],
// [ErrExited], [ErrStart], [ErrUnreachable] or [ErrClosed]. A non-2xx HTTP
// status is not an error: it is in [Reply.HTTP].
//
//	conn, err := transport.StartStdio(ctx, &transport.StdioOptions{Command: "my-server"})
//	if err != nil {
//		return err // ErrStart
//	}
//	defer conn.Close()
//	frame, _ := jsonrpc.EncodeRequest(jsonrpc.IntID(1), "ping", nil)
//	reply, err := conn.Call(ctx, &transport.Call{Frame: frame, ID: jsonrpc.IntID(1)})
//
// # Processes
//
// A stdio server runs in its own process group, with SIGKILL as its
// parent-death signal on Linux, so that neither it nor its children outlive
// mcpward. Close closes its stdin, then signals the group with SIGTERM and
// SIGKILL after a grace period each, and always reaps the process.
package transport
