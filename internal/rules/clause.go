package rules

import (
	"slices"
	"strings"
)

// A Clause is one MUST or MUST NOT of the specification that a
// violation-level rule rests on. The catalogue keeps the clauses itself (the
// protocol digest lives outside the repository), so that docs/RULES.md can
// show, next to every rule that makes `mcpward` exit 3, the sentence the
// server broke and the revision it belongs to.
type Clause struct {
	// ID is the DIGEST rule id (HTTP-ORIGIN-VALIDATE). A clause the DIGEST
	// states without an id is named by where it stands: "§2.1
	// server/discover", "JSON-RPC 2.0 §5", "schema CacheableResult".
	ID string `json:"id"`
	// Since is the first revision the clause binds (2024-11-05 for every
	// revision, 2026-07-28 for the modern era only).
	Since string `json:"since"`
	// Text is the clause, paraphrased, with its MUST / MUST NOT.
	Text string `json:"text"`
	// On is the transport the clause binds (OnStdio, OnHTTP; "" means
	// any): a finding on one transport never cites another's clause.
	On string `json:"on,omitempty"`
}

// Transport returns the transport the clause binds: OnStdio, OnHTTP or
// OnAny.
func (c Clause) Transport() string {
	if c.On == "" {
		return OnAny
	}
	return c.On
}

// ModernOnly reports whether the clause binds 2026-07-28 and later only: a
// legacy profile or a legacy server is never judged by it.
func (c Clause) ModernOnly() bool { return c.Since >= ModernVersion }

// Revisions are the revisions clauses can name in Since.
var Revisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// LookupClause returns the clause with the given id.
func LookupClause(id string) (Clause, bool) {
	i := slices.IndexFunc(clauses, func(c Clause) bool { return c.ID == id })
	if i < 0 {
		return Clause{}, false
	}
	return clauses[i], true
}

// Clauses returns every clause, in catalogue order.
func Clauses() []Clause { return slices.Clone(clauses) }

// IsDigestID reports whether id has the shape of a DIGEST rule id
// (upper-case words joined by hyphens), as opposed to a section reference.
func IsDigestID(id string) bool {
	return id != "" && strings.Trim(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") == "" && strings.Contains(id, "-")
}

const (
	sinceAll    = "2024-11-05"
	since2503   = "2025-03-26"
	since2506   = "2025-06-18"
	since2511   = "2025-11-25"
	sinceModern = ModernVersion
)

// clauses are the MUST / MUST NOT sentences of the DIGEST (and of JSON-RPC
// 2.0 and the schema, which the DIGEST points to) that violation-level
// rules cite. Paraphrased as the DIGEST paraphrases the spec.
var clauses = []Clause{
	// JSON-RPC 2.0 and the base protocol (every revision).
	{ID: "JSON-RPC 2.0 §4", Since: sinceAll, Text: "Every message MUST be a JSON-RPC 2.0 object whose jsonrpc member is exactly \"2.0\"; the server MUST reply to a request with a Response"},
	{ID: "JSON-RPC 2.0 §4.1", Since: sinceAll, Text: "The server MUST NOT reply to a notification"},
	{ID: "JSON-RPC 2.0 §5", Since: sinceAll, Text: "A response MUST carry the id of the request it answers (null only for an error whose request id could not be read), and MUST include either result or error, never both"},
	{ID: "request ids", Since: sinceAll, Text: "Request ids MUST be a string or an integer, MUST NOT be null, and MUST NOT be reused by the requester while the request is in flight"},
	{ID: "notifications/progress", Since: sinceAll, Text: "The progress value MUST increase with each notification for a token, and progress notifications MUST stop once the request completed"},
	{ID: "schema Tool.inputSchema", Since: sinceAll, Text: "Tool.inputSchema is required and MUST be a JSON Schema object whose root type is \"object\""},
	{ID: "STDIO-STDOUT-CLEAN", Since: sinceAll, Text: "The server MUST NOT write anything to stdout that is not a valid MCP message", On: OnStdio},
	{ID: "STDIO-STDIN-CLEAN", Since: sinceAll, Text: "The client MUST NOT write anything to stdin that is not a valid MCP message", On: OnStdio},
	{ID: "2025-03-26 batching", Since: since2503, Text: "Implementations MUST support receiving JSON-RPC batches (2025-03-26 only: batching was removed in 2025-06-18)"},
	{ID: "STDIO-NO-BATCH", Since: since2506, Text: "A message MUST be one request, notification or response: JSON-RPC batches were allowed in 2025-03-26 only (a modern HTTP body MUST be a single request or notification, HTTP-BODY-SINGLE)"},
	// Legacy lifecycle.
	{ID: "legacy operation", Since: since2506, Text: "Both sides MUST respect the negotiated protocol version and capabilities: a server MUST NOT send sampling/createMessage, roots/list or elicitation/create to a client that did not declare sampling, roots or elicitation in initialize"},
	// Streamable HTTP (legacy and modern).
	{ID: "HTTP-ORIGIN-VALIDATE", Since: since2511, Text: "The server MUST validate Origin on every request and answer a present, invalid Origin with 403 (validation is required since 2025-03-26; the explicit 403 since 2025-11-25)", On: OnHTTP},
	{ID: "legacy sessions", Since: since2503, Text: "Once the server has ended a session, it MUST answer every request carrying that Mcp-Session-Id with 404 Not Found", On: OnHTTP},
	{ID: "HTTP-NOTIF-202", Since: since2503, Text: "An accepted notification MUST get 202 with no body; a rejected one an error status", On: OnHTTP},
	{ID: "HDR-PROTO-VERSION", Since: since2506, Text: "A request with an unsupported MCP-Protocol-Version MUST get 400 (2026-07-28: 400 with -32022 and data.supported); on modern requests MCP-Protocol-Version is required and MUST equal _meta protocolVersion; on any transport a 2026-07-28 server MUST answer a protocol version it does not implement with -32022 and data.supported"},
	// Streamable HTTP, modern.
	{ID: "HTTP-NO-SESSION", Since: sinceModern, Text: "A modern server MUST NOT mint or echo Mcp-Session-Id", On: OnHTTP},
	{ID: "HDR-MISMATCH-400", Since: sinceModern, Text: "A server that processes the body MUST reject a missing required standard header, a header/body mismatch, invalid characters in a header or undecodable Base64 with 400 and -32020", On: OnHTTP},
	{ID: "HDR-B64-SENTINEL", Since: sinceModern, Text: "Servers MUST decode the =?base64?…?= form of Mcp-Name and Mcp-Param-* before comparing it with the body", On: OnHTTP},
	{ID: "HDR-MCP-METHOD", Since: sinceModern, Text: "Every modern HTTP request MUST carry Mcp-Method equal to the body's method (case-sensitive)", On: OnHTTP},
	{ID: "HDR-MCP-NAME", Since: sinceModern, Text: "tools/call, prompts/get and resources/read MUST carry Mcp-Name equal to params.name or params.uri (the tasks extension: params.taskId)", On: OnHTTP},
	{ID: "HDR-MCP-PARAM", Since: sinceModern, Text: "Clients MUST send Mcp-Param-{Name} for every x-mcp-header-bound argument that is present and not null, with the argument's value (Base64-sentinel encoded when unsafe)", On: OnHTTP},
	{ID: "HTTP-METHOD-404", Since: sinceModern, Text: "An unknown or unimplemented method MUST get 404 with -32601", On: OnHTTP},
	{ID: "META-REQ-FIELDS", Since: sinceModern, Text: "Every modern request MUST carry _meta protocolVersion and clientCapabilities; a server MUST reject a request missing either with -32602 (HTTP 400, HTTP-META-400)"},
	{ID: "server/discover", Since: sinceModern, Text: "Servers MUST implement server/discover"},
	{ID: "STDIO-NO-SRV-REQ", Since: sinceModern, Text: "A modern server MUST NOT send JSON-RPC requests (on stdio or any SSE stream, SSE-NO-REQUESTS): server-to-client needs go through InputRequiredResult"},
	{ID: "STDIO-NO-CLI-RESP", Since: sinceModern, Text: "A modern client MUST NOT send JSON-RPC responses"},
	{ID: "schema CancelledNotification", Since: sinceModern, Text: "Servers MUST NOT use notifications/cancelled except to end a subscriptions/listen stream on stdio"},
	// x-mcp-header.
	{ID: "XMH-NONEMPTY", Since: sinceModern, Text: "An x-mcp-header value MUST NOT be empty"},
	{ID: "XMH-TOKEN", Since: sinceModern, Text: "An x-mcp-header value MUST be an RFC 9110 token (a string of tchar: no spaces, colons, non-ASCII or control characters)"},
	{ID: "XMH-UNIQUE-CI", Since: sinceModern, Text: "x-mcp-header values MUST be unique within one inputSchema, ignoring case"},
	{ID: "XMH-PRIMITIVE", Since: sinceModern, Text: "x-mcp-header MUST only annotate properties of type string, integer or boolean"},
	{ID: "XMH-INT-SAFE", Since: sinceModern, Text: "Integer values bound to a header MUST stay within ±(2^53−1)"},
	{ID: "XMH-STATIC-PATH", Since: sinceModern, Text: "An annotated property MUST be reachable from the root through properties keys only"},
	// Cache hints.
	{ID: "schema CacheableResult", Since: sinceModern, Text: "A complete result of server/discover, tools/list, prompts/list, resources/list, resources/templates/list or resources/read MUST carry ttlMs (an integer ≥ 0) and cacheScope (\"public\" or \"private\"); the schema marks both required"},
	{ID: "CACHE-SCOPE-CONSISTENT-PAGES", Since: sinceModern, Text: "Every page of one list MUST use the same cacheScope"},
	// Error codes.
	{ID: "ERR-RESERVED-RANGE", Since: sinceModern, Text: "A modern implementation MUST NOT emit an undefined error code from -32020…-32099 (JSON-RPC leaves -32000…-32099 to implementations, so legacy servers may)"},
	{ID: "RES-NO-LEGACY-32002", Since: sinceModern, Text: "A modern server MUST NOT emit -32002 (resource not found is -32602) or -32042"},
	// resultType, MRTR.
	{ID: "RT-REQUIRED", Since: sinceModern, Text: "Every modern result MUST include resultType"},
	{ID: "MRTR-ALLOWED-METHODS", Since: sinceModern, Text: "Only tools/call, resources/read and prompts/get MAY answer input_required; every other method MUST NOT"},
	{ID: "MRTR-NONEMPTY", Since: sinceModern, Text: "An input_required result MUST carry inputRequests or requestState"},
	{ID: "MRTR-VALUE-TYPES", Since: sinceModern, Text: "inputRequests values MUST be bare {method, params} objects for elicitation/create, sampling/createMessage or roots/list"},
	{ID: "MRTR-CAP-GATED", Since: sinceModern, Text: "A server MUST NOT ask (in inputRequests) for anything the client did not declare in this request's capabilities; URL elicitation needs elicitation.url, sampling with tools needs sampling.tools"},
	{ID: "MRTR-ECHO-STATE", Since: sinceModern, Text: "The client MUST echo requestState byte for byte in the retry, and send none if none was given"},
	{ID: "META-CAP-MISSING", Since: sinceModern, Text: "If serving a request needs a client capability that was not declared, the server MUST return -32021 with data.requiredCapabilities (HTTP 400)"},
	{ID: "extension fallback", Since: sinceModern, Text: "If only one side supports an extension, the side that does MUST either fall back to core behaviour or reject the request with an error; a server MUST NOT return a task to a request that did not declare the tasks extension (TASK-CAP-GATE)"},
	{ID: "TOOL-LIST-STABLE", Since: sinceModern, Text: "tools/list MUST NOT vary per connection or as a side effect of other calls (it MAY vary with authorisation)"},
	// subscriptions/listen.
	{ID: "SUB-OPT-IN", Since: sinceModern, Text: "A server MUST NOT send a notification type the listen filter did not request"},
	{ID: "SUB-ACK-FIRST", Since: sinceModern, Text: "notifications/subscriptions/acknowledged MUST be the first message of each subscription"},
	{ID: "SUB-TAG-ID", Since: sinceModern, Text: "Every notification on a listen stream MUST carry _meta subscriptionId equal to the listen request's id"},
}
