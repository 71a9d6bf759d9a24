// Package fuzz is the pure core of `mcpward fuzz`: it generates the cases
// a hostile or sloppy client sends a server (malformed and truncated JSON,
// invalid UTF-8, duplicate keys, batches, wrong jsonrpc members, ids of
// every type and size, unknown methods, notifications with ids, wrong
// params, a broken _meta envelope, very long lines, and tool arguments
// generated from each tool's input schema and then broken), judges what
// the server did with each by the revision it speaks, minimises the frames
// of a finding by delta debugging, and reads and writes the replay files
// (txtar) a finding is saved as. It does no I/O: internal/fuzzrun sends the
// frames (a fresh process or connection per case) and fills the
// [Observation] the judge reads.
package fuzz
