// Package store is the live view's own bounded model of the traffic: it
// correlates records into calls (package calls) and keeps, per session, a
// window of the newest rows plus counters over the whole session. Memory
// stays bounded however long a session runs: rows beyond the window are
// dropped (the source still has them, and the log), counters and the
// per-tool summary are kept.
//
// A Store is not safe for concurrent use: the root model feeds it from
// Update and the pages read it from View, both on bubbletea's goroutine.
package store
