// Package hub gathers the records of every mcpward session for the live
// view (`mcpward ui`): live from running proxies over a local socket
// (package feed), and from the session logs in the state directory.
//
// What it fixes in mcpsnoop's hub:
//
//   - ingest is decoupled from consumers: records go into per-session
//     rings and consumers pull coalesced batches ([Subscription.Next]), so
//     a slow screen never backs up the proxies;
//   - memory is bounded ([Options.MemoryBudget]): the newest records of a
//     session are kept in full, older ones as a [FrameInfo] and read back
//     from the log on demand, and whole idle sessions are evicted;
//   - logs are read at start (the newest [Options.History]) and watched
//     afterwards: new logs, logs that grow without a feed (a --trace-file),
//     and old logs that come back to life are all picked up;
//   - dedup is by (session, seq) as a set, so records re-read from the log
//     to fill a feed gap are kept even though later ones arrived first;
//   - a proxy that dropped records from its feed (hub absent or slow) says
//     which, and the hub reads exactly those from the log: a frame in the
//     log is never missing from the live view.
//
// # Who owns the records
//
// The hub is the one owner of the live view's records, and
// [Options.MemoryBudget] is the one bound on them: a record is kept alive
// only by its session's window (KeepFull newest in full). The subscriber
// backlog drops its reference when a record leaves that window (a
// subscriber that had not taken it counts it in [Batch.Skipped]), and the
// live view's store (internal/tui/store) keeps only rows it derives and a
// weak reference, reading a record back through [Hub.Records] when it is
// gone. So once a session is evicted or a record summarised, its bytes
// can be collected.
//
// Example:
//
//	h, err := hub.New(ctx, hub.Options{StateDir: dir, History: 100})
//	if err != nil {
//		return err
//	}
//	defer h.Close()
//	sub := h.Subscribe()
//	for {
//		b, err := sub.Next(ctx)
//		if err != nil {
//			return err
//		}
//		render(h.Sessions(), b.Records)
//	}
package hub
