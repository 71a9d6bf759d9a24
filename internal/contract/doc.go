// Package contract is the I/O glue the contract commands (init, record,
// check, demo) share: load mcpward.json, resolve a target into how to reach
// it and what to probe, observe the live server and build its snapshot,
// say why evidence is incomplete, and read or atomically write snapshot
// files.
//
//	t, err := contract.FromConfig(cfg, name, tgt, lookup)
//	obs, err := contract.Observe(ctx, t, &contract.ObserveOptions{Version: v})
//	if len(obs.Problems) > 0 { /* exit 2, write nothing */ }
//	err = contract.WriteSnapshot(path, obs.Snapshot)
//
// The pure work (building, diffing, judging, rendering) lives in
// internal/snapshot, internal/diff, internal/verdict and internal/report;
// this package only connects them to the file system and the network.
package contract
