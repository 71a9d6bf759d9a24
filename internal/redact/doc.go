// Package redact hides secrets in recorded MCP traffic before it reaches a
// session log, the live view or an OTLP collector.
//
// A [Redactor] is built once from a [Config] (the --redact-* flags and the
// redaction table of .mcpward.toml) and then applied to each recorded frame
// off the relay path: the bytes a client and server exchange are never
// changed, only the copy that is kept.
//
//	r, err := redact.New(redact.Config{Secrets: true, Keys: []string{"ssn"}})
//	out, changed := r.Frame(frame)
//
// # Raw bytes are preserved
//
// Frames are not decoded and re-encoded. A tokenizing scan finds the byte
// spans of the values to hide and only those spans are replaced by
// "[REDACTED]": key order, whitespace, number spellings and every other
// byte stay as they were. A frame with nothing to hide is returned as the
// same slice, without a copy.
//
// # Rules
//
//   - Secrets: built-in detectors for bearer tokens, API keys (sk-…, ghp_…,
//     xox…-, AKIA…, AIza…), JWTs, PEM private key blocks and URL passwords
//     (scheme://user:PASSWORD@host, scheme://TOKEN@host) inside any string,
//     credential-named members (password, secret, token, api_key, …, also
//     as suffixes: dbPassword, GITHUB_TOKEN), credential headers, key=value
//     pairs in free text (also with escaped quotes, JSON text inside a JSON
//     string), URL query parameters that carry a credential (?code=, ?sig=,
//     ?key=, ?auth=, ?access_token= …), the Mcp-Session-Id header (as a
//     keyed pseudonym, see [Redactor.Header]), and tool arguments their
//     own schema marks as secret (format "password", writeOnly, or an
//     x-mcp-header binding with a credential name), learnt from tools/list
//     results.
//   - Keys: object members whose name equals one of the keys, ignoring case,
//     at any depth.
//   - Values: regular expressions; each match inside a string (and a
//     number whose spelling matches) is replaced.
//   - Paths: JSONPath-like selectors relative to the JSON-RPC message
//     (params.arguments.password, result.tools[*].name, $..token).
//
// Inside a tools/list result's inputSchema and outputSchema the key rule is
// not applied to the schema's structure (a property named "password" is kept
// so the schema stays readable), only under default, const, examples and
// enum, which hold instance values.
//
// Arrays of strings are read as argument vectors: "--token=abc",
// "--api-key abc" and "TOKEN=abc" lose their values when the flag names a
// key.
//
// # Text
//
// What is kept is redacted whatever its shape. A frame that is not one JSON
// value is read line by line: a line that starts with a JSON value (after
// an SSE "data:" prefix) gets the full JSON treatment for that value, and
// the rest (stderr lines, bytes after the value, pretty-printed lines, a
// form body, a frame cut at the record cap) is read as text: the value
// detectors, and a text scanner that hides the value after a hidden name
// in `name=value` (queries, forms), `name: value` and `"name": "value"`
// shapes. A hidden name there is a key, a credential name (Secrets), the
// last name of a path rule, or a learnt secret argument; a value whose end
// is missing (a truncated copy) is hidden to the end of its line (a
// string) or of the frame (an object or array). JSON strings of a frame
// that mentions a key are scanned the same way, so a tool's text result
// holding "ssn=…" or escaped JSON loses the value too. Header values and
// [Redactor.Text] (a path, an error message) get the same text rules.
//
// A stream kept one frame a line (a server's stderr) is redacted through
// [Redactor.Lines], which also hides a value a pretty-printer put on the
// line after its name.
//
// Redaction is best effort: a secret with no recognisable shape under a
// neutral name is not found. A Redactor is safe for concurrent use.
package redact
