// Package snapshot turns the raw evidence of one observation of an MCP
// server into a canonical, diffable Snapshot, and reads and writes the
// snapshot file format.
//
// The package is pure: it does no I/O. The prober (internal/probe) fills an
// [Evidence] with the server's own bytes; [Build] decodes, merges pages,
// sorts, sketches behaviour, parses the server manifest and computes the
// digests; [Marshal] writes the canonical bytes (keys sorted at every depth,
// 2-space indent, trailing newline) that the CLI writes atomically to disk;
// [Unmarshal] reads them back strictly. [UnmarshalLazy] reads them as
// strictly but keeps the tools as their bytes ([Surface.RawTools]), for a
// diff that decodes only the tools whose bytes differ.
//
//	snap, err := snapshot.Build(ev, &snapshot.BuildOptions{MCPWardVersion: "0.1.0"})
//	if err != nil { … }
//	b, err := snapshot.Marshal(snap)
//
// # Observation and surface
//
// A snapshot keeps metadata that is never diffed (time, target, era, status,
// coverage, notes) in Observation, apart from the Surface: everything the
// server declared or did that a diff compares. The surfaceDigest is the
// sha256 of the RFC 8785 (JCS) bytes of the canonical surface and is written
// only when the surface is complete, so two equal digests prove two equal
// surfaces, and a missing digest says the evidence is incomplete.
//
// # Canonical form
//
// The stored form keeps declared order where order means something (prompt
// arguments in declared order; the tools/list order in toolsList.order) and
// sorts entity lists by identity (tools by name, resources by uri). The
// digest form additionally treats sets as sets: `required`, `enum` and
// `type` arrays inside schemas, supportedVersions and manifest operations
// are sorted by their JCS form, prompt arguments by name, and page counts
// are left out (pagination is a transport detail, not surface).
package snapshot
