// Package replay re-sends one recorded request to its server and compares
// the answer with the recorded one.
//
// [Find] reads a session log and returns what it holds about one call:
// the exact request frame, the recorded response, and how the server was
// reached (the stdio argv and cwd of the start record, or the HTTP
// target). [Run] connects (internal/connect), sends the request (the exact
// recorded bytes unless params were edited: internal/client Send), and
// [Compare] gives a structural diff of the two responses.
//
// # Environment
//
// A session log records the names of the server's environment variables,
// never their values (they are secrets as often as not). So the recorded
// environment cannot be restored; with WithEnv, the server gets only the
// recorded names, with their values taken from the replaying process's
// own environment, and the names that are not set there are reported.
//
// # Difference from mcpsnoop
//
// mcpsnoop replayed stdio sessions only, sent params it could not edit,
// used the hub's own environment and dropped the recorded _meta, so a
// 2026-07-28 server refused the replay for missing clientCapabilities.
// Here the full recorded _meta envelope is sent (or a fresh one), HTTP
// sessions replay too, params can be replaced or edited, and the result
// is diffed against the recording.
package replay
