// Package session defines mcpward's session log: one JSON object per line,
// one line per observed frame, written by the proxy and read by every
// analysis (check, export, the live view). The format is documented in
// docs/session-log.md.
//
// The package is pure (no os, no net) so the reader also runs in the
// browser build. It holds three things:
//
//   - [Record], the decoded form of one line, and [AppendRecord], which
//     encodes a record without re-encoding its frame: a frame that is valid
//     JSON is spliced in as is, anything else is kept as a string or, when
//     it is not valid UTF-8, as base64;
//   - [Reader], which streams records in bounded memory and skips (and
//     reports) torn or corrupt lines instead of failing;
//   - session ids ([NewID]) and labels ([DeriveLabel], [CheckLabel]), which
//     together name a log file that is valid on every OS.
//
// Example:
//
//	r := session.NewReader(f)
//	for {
//		rec, err := r.Next()
//		if err == io.EOF {
//			break
//		}
//		if err != nil {
//			return err
//		}
//		use(rec.Seq, rec.Dir, rec.Frame)
//	}
//	for _, p := range r.Problems() {
//		fmt.Println(p) // line 7: corrupt record: …
//	}
package session
