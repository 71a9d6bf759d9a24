// Package client speaks MCP to one server over a [transport.Conn]: it
// detects the server's era exactly as the specification describes, runs the
// legacy handshake or builds the modern per-request envelope, paginates
// every list to its end, and answers the server's own requests (ping).
//
// It is built for a prober, not for an application: JSON-RPC errors are
// data (a [Response] with an error object), every reply keeps the raw bytes
// and HTTP details, and [Client.Send] lets a caller put arbitrary bytes and
// headers on the wire when a rule needs to see how the server reacts to a
// deliberately wrong request.
//
//	c := client.New(conn, nil)
//	hs, err := c.Connect(ctx)            // era detection + handshake
//	pages, serr := c.List(ctx, "tools/list")
package client
