package mcp

// Well-known _meta keys (DIGEST §1.2, §1.3).
const (
	// MetaProtocolVersion is required on every modern request.
	MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	// MetaClientCapabilities is required on every modern request.
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	// MetaClientInfo SHOULD be on every modern request.
	MetaClientInfo = "io.modelcontextprotocol/clientInfo"
	// MetaLogLevel opts a modern request into notifications/message
	// (deprecated in 2026-07-28).
	MetaLogLevel = "io.modelcontextprotocol/logLevel"
	// MetaServerInfo SHOULD be in every modern result's _meta.
	MetaServerInfo = "io.modelcontextprotocol/serverInfo"
	// MetaSubscriptionID ties a notification to its subscriptions/listen
	// request; its value equals the listen request id, type preserved.
	MetaSubscriptionID = "io.modelcontextprotocol/subscriptionId"
	// MetaProgressToken opts a request into progress notifications.
	MetaProgressToken = "progressToken"
	// MetaTraceparent, MetaTracestate and MetaBaggage carry W3C trace
	// context; they are exempt from the prefix rule (SEP-414).
	MetaTraceparent = "traceparent"
	// MetaTracestate is the W3C tracestate value.
	MetaTracestate = "tracestate"
	// MetaBaggage is the W3C baggage value.
	MetaBaggage = "baggage"
	// MetaRelatedTask is the legacy 2025-11-25 experimental-tasks key.
	MetaRelatedTask = "io.modelcontextprotocol/related-task"
	// MetaModelImmediateResponse is a legacy 2025-11-25 tasks key.
	MetaModelImmediateResponse = "io.modelcontextprotocol/model-immediate-response"
	// MetaDegraded is snapgauge's degradation marker: an array of the
	// capability names a server did without when it returned a reduced
	// result. Not part of the specification; pinned for compatibility.
	MetaDegraded = "mcp/degraded"
)

// Extension identifiers known to us (DIGEST §1.5).
const (
	// ExtTasks is the tasks extension (SEP-2663).
	ExtTasks = "io.modelcontextprotocol/tasks"
	// ExtUI is MCP Apps.
	ExtUI = "io.modelcontextprotocol/ui"
	// ExtOAuthClientCredentials is the client-credentials auth extension.
	ExtOAuthClientCredentials = "io.modelcontextprotocol/oauth-client-credentials"
)
