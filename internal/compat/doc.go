// Package compat is the conformance engine: it probes one server under the
// compat profiles (protocol versions, client capabilities, extensions,
// header behaviour) and runs the rule groups of the catalogue
// (internal/rules): T (Streamable HTTP framing, or the stdio rules on
// stdio), X (x-mcp-header, static and live), D (degradation under reduced
// profiles, judged by the `_meta["mcp/degraded"]` marker), plus era,
// advertised-version honesty, stability across fresh connections, cache
// hints on every cacheable result and error-code misuse.
//
// Every finding carries the request and response that prove it
// (result.Exchange), and levels follow the protocol digest: rules that do
// not bind a server of the observed era or transport are reported `n/a`
// with the reason, never as a silent pass and never as a violation.
//
// `mcpward compat`, `mcpward check` and the board call [Run].
package compat
