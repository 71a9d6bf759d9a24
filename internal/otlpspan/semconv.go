package otlpspan

// The names mcpward emits. The standard ones follow the OpenTelemetry
// semantic conventions for MCP (maintained in the GenAI conventions,
// docs/gen-ai/mcp.md, status Development), with the general attributes
// they reference (error.type, network.*, http.*, rpc.*, jsonrpc.*,
// service.*, process.*); everything mcpward adds is under mcpward.*.
// testdata/semconv.txt pins the whole list, and TestEmittedNamesArePinned
// checks every name a span, event, resource or metric carries against it.

// Span attributes of the MCP conventions.
const (
	AttrMCPMethodName          = "mcp.method.name"
	AttrMCPSessionID           = "mcp.session.id"
	AttrMCPProtocolVersion     = "mcp.protocol.version"
	AttrMCPResourceURI         = "mcp.resource.uri"
	AttrJSONRPCRequestID       = "jsonrpc.request.id"
	AttrRPCResponseStatusCode  = "rpc.response.status_code"
	AttrGenAIToolName          = "gen_ai.tool.name"
	AttrGenAIPromptName        = "gen_ai.prompt.name"
	AttrGenAIOperationName     = "gen_ai.operation.name"
	AttrNetworkTransport       = "network.transport"
	AttrNetworkProtocolName    = "network.protocol.name"
	AttrErrorType              = "error.type"
	AttrHTTPResponseStatusCode = "http.response.status_code"
)

// Values of the MCP conventions.
const (
	// OperationExecuteTool is gen_ai.operation.name of a tools/call.
	OperationExecuteTool = "execute_tool"
	// TransportPipe and TransportTCP are network.transport of stdio and
	// HTTP.
	TransportPipe = "pipe"
	TransportTCP  = "tcp"
)

// Resource attributes.
const (
	AttrServiceName        = "service.name"
	AttrServiceVersion     = "service.version"
	AttrProcessCommand     = "process.command"
	AttrProcessCommandArgs = "process.command_args"
)

// mcpward's span attributes.
const (
	AttrSessionID        = "mcpward.session.id"
	AttrCallDirection    = "mcpward.call.direction"
	AttrCallState        = "mcpward.call.state"
	AttrCallRequestBytes = "mcpward.call.request_bytes"
	AttrCallResultBytes  = "mcpward.call.result_bytes"
	AttrCallToolError    = "mcpward.call.tool_error"
	AttrCallRounds       = "mcpward.call.rounds"
	AttrCallProgress     = "mcpward.call.progress"
	AttrCallTaskID       = "mcpward.call.task_id"
	AttrCallTaskStatus   = "mcpward.call.task_status"
	AttrCallTruncated    = "mcpward.call.truncated"
	// AttrCallTraceSource is "http_header" when the span's parent came
	// from the HTTP request's traceparent header, not params._meta.
	AttrCallTraceSource = "mcpward.call.trace_source"
	// AttrCallFindings counts mcpward's findings on the call's frames;
	// AttrCallViolations those of class violation (a MUST broken).
	AttrCallFindings   = "mcpward.call.findings"
	AttrCallViolations = "mcpward.call.violations"
)

// mcpward's resource attributes.
const (
	AttrServerLabel       = "mcpward.server.label"
	AttrTransport         = "mcpward.transport"
	AttrServerTarget      = "mcpward.server.target"
	AttrServerName        = "mcpward.server.name"
	AttrServerVersion     = "mcpward.server.version"
	AttrClientName        = "mcpward.client.name"
	AttrSessionLostFrames = "mcpward.session.lost_frames"
	// The session's wire frames and errors (the error signal) so far, as
	// every surface counts them (calls.Session).
	AttrSessionFrames = "mcpward.session.frames"
	AttrSessionErrors = "mcpward.session.errors"
)

// EventFinding is the name of the span event of one finding, with its
// attributes.
const (
	EventFinding       = "mcpward.finding"
	AttrFindingRuleID  = "mcpward.finding.rule_id"
	AttrFindingLevel   = "mcpward.finding.level"
	AttrFindingClass   = "mcpward.finding.class"
	AttrFindingSignal  = "mcpward.finding.signal"
	AttrFindingMessage = "mcpward.finding.message"
)

// Metric names: the four duration histograms of the MCP conventions and
// mcpward's count of findings.
const (
	MetricClientOperationDuration = "mcp.client.operation.duration"
	MetricServerOperationDuration = "mcp.server.operation.duration"
	MetricClientSessionDuration   = "mcp.client.session.duration"
	MetricServerSessionDuration   = "mcp.server.session.duration"
	MetricFindings                = "mcpward.findings"
)

// DurationBounds are the explicit bucket boundaries, in seconds, the MCP
// conventions give for their duration histograms.
var DurationBounds = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}
