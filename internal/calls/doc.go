// Package calls turns the frames of session logs into calls: a request and
// everything that settles it (its response, a cancellation, MRTR retries,
// task polls, progress and subscription notifications). It is the one
// correlation engine behind `sessions check`, `sessions list`, the exports
// and the live view.
//
// The package is pure (no os, no net): records come in through
// [Store.Add], one at a time, in file order, from any number of sessions
// (a --trace-file may hold several runs). Memory stays bounded on logs of
// any size: a call is handed to [Options.OnSettle] when it reaches a final
// state and only a small tombstone is kept after that (so that a duplicate
// or late response is still recognised); per-tool statistics are counters
// and durations, never frames.
//
// HTTP calls are paired by session (Mcp-Session-Id, or the exchange id of
// a stateless POST) and JSON-RPC id, never by TCP connection, so a server
// request answered on another connection is paired (mcpsnoop left it
// pending and reported an unmatched response).
//
//	s := calls.New(&calls.Options{
//		OnFrame:  func(f *calls.Frame) { check(f) },
//		OnSettle: func(c *calls.Call) { sink(c) },
//	})
//	for line, rec := range records {
//		s.Add(rec, line)
//	}
//	for _, sess := range s.Sessions() {
//		fmt.Println(sess.ID, s.Summary(sess.ID).DefinitionBytes)
//	}
package calls
