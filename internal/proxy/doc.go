// Package proxy sits in the pipe between an MCP client and server: the
// stdio shim ([RunStdio]) and the HTTP reverse proxy ([NewHTTPProxy]),
// both of which relay bytes unchanged and hand every frame to a
// [Recorder]. The [Log] recorder writes the session log of package session.
//
// The relay path does no JSON work and never waits for analysis: it hands
// the frames a read completes to the recorder, which numbers them (the
// order of the wire: a read is numbered before it is forwarded, so an
// answer is never numbered before what it answers), then writes the read
// through. Frames are not copied: a frame is a slice of the buffer it was
// read into, leased to the [Log] until written (only a line spanning
// buffers is joined, into a recycled buffer). The recorder encodes and
// writes on its own goroutine with memory bounded by bytes; when it falls
// behind, the relay waits (backpressure) instead of dropping frames, so
// the log is complete or says, with a "lost" record, exactly what it
// lacks.
//
//	log := proxy.NewLog(f, &proxy.LogOptions{Session: id, Label: label})
//	st, err := proxy.RunStdio(ctx, &proxy.StdioOptions{
//		Command: argv, Env: env, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
//		Recorder: log,
//	})
//	lerr := log.Close()
package proxy
