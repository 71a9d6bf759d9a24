// Package store is the live view's model of the traffic: it correlates
// records into calls (package calls) and keeps, per session, a window of
// the newest rows plus counters over the whole session.
//
// The store does not own records. The source does (the hub, whose
// MemoryBudget is the one bound on record bytes): a [Row] holds only what
// it derives from its record (method, id, a one-line detail cut at 240
// bytes, status, instructions of an initialize result) and a weak
// reference, [Row.Record], which is nil once the source let the record
// go; the caller then reads it back with common.Source.Records. So the
// store adds a small, fixed cost per row, bounded by
// Options.RowsPerSession × Options.MaxSessions rows, and never keeps a
// frame alive. Rows beyond the window are dropped (the source still has
// them, and the log); counters and the per-tool summary are kept.
//
// A Store is not safe for concurrent use: the root model feeds it from
// Update and the pages read it from View, both on bubbletea's goroutine.
package store
