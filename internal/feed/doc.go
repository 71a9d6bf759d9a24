// Package feed streams a running proxy's session records to the hub over a
// local socket, so that `mcpward ui` shows traffic as it happens.
//
// A [Sink] never blocks the relay. It has its own bounded buffer; when the
// hub is absent, slow or restarting, records are dropped from the feed only
// (the session log on disk stays complete) and the seq ranges that were
// dropped are remembered. The hub is told about them, in band as soon as
// the connection has room again or in the hello of the next connection,
// and re-reads exactly those records from the log file: a frame that is in
// the log is never missing from the live view.
//
// # Protocol
//
// The stream on the socket is itself a session log (docs/session-log.md),
// so the hub reads it with [session.NewReader] and nothing else. Records
// are the lines the proxy writes to its log, byte for byte. Control
// records use seq 0, which no real record has, with dir "meta":
//
//   - kind "feed-hello", first on every connection, info [Hello]: the
//     session's log path, the proxy's pid, and the ranges missed so far;
//   - kind "feed-gap", info [Hello] with only Missed set: ranges dropped
//     while connected (the hub was slow).
//
// Example, next to a proxy.Log:
//
//	sink := feed.New(&feed.Options{Socket: sock, Session: id, Label: label, Log: path, PID: os.Getpid()})
//	defer sink.Close()
//	log := proxy.NewLog(f, &proxy.LogOptions{Session: id, Label: label, Feed: sink.Record})
package feed
