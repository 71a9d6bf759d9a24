// Package config is the model of mcpward.json, the file that names the
// servers a project keeps contracts for: where snapshots live, and per
// target how to reach the server, which probes to run, which fields are
// volatile and how to gate.
//
//	f, err := config.Parse(data)
//	name, t, err := f.Target("")   // the only target, or a usage error
//
// Parsing is pure (bytes in, model out) and strict: an unknown key, a
// duplicate key or a value of the wrong type is an error that names the key
// and where it is, marked fault.Input (exit 4). Loading the file from disk
// and interpolating ${VAR} in header values happen at the edge
// (internal/contract), which owns the environment.
package config
