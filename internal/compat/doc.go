// Package compat is the conformance engine: it probes one server under the
// compat profiles (protocol versions, client capabilities, extensions,
// header behaviour) and runs the rule groups of the catalogue
// (internal/rules): T (Streamable HTTP framing, or the stdio rules on
// stdio), X (x-mcp-header, static and live), D (degradation under reduced
// profiles: META-CAP-MISSING, MRTR-CAP-GATED and extension fallback for
// modern profiles, the legacy capability rule for legacy ones), plus era,
// advertised-version honesty, stability across fresh connections, cache
// hints on every cacheable result and error-code misuse.
//
// Every finding carries the request and response that prove it
// (result.Exchange; on a legacy profile also the server's requests and
// the profile's replies), and a violation rests on a MUST clause the
// evidence breaks (docs/design.md, "Verdicts rest on MUST clauses"). Rules
// that do not bind a server of the observed era or transport are reported
// `n/a` with the reason, and whatever was not evaluated (unserved
// profiles, the D rules without probes) is listed in
// [Report.NotEvaluated]: never a silent pass, never a violation. A
// legacy profile serves what it declares in initialize, so that a failure
// mcpward would cause is not blamed on the server.
//
// `mcpward compat`, `mcpward check` and the board call [Run].
package compat
