package mcp

import (
	"slices"
)

// Request methods (DIGEST §2.1).
const (
	MethodInitialize             = "initialize"
	MethodPing                   = "ping"
	MethodDiscover               = "server/discover"
	MethodToolsList              = "tools/list"
	MethodToolsCall              = "tools/call"
	MethodResourcesList          = "resources/list"
	MethodResourcesTemplatesList = "resources/templates/list"
	MethodResourcesRead          = "resources/read"
	MethodResourcesSubscribe     = "resources/subscribe"
	MethodResourcesUnsubscribe   = "resources/unsubscribe"
	MethodPromptsList            = "prompts/list"
	MethodPromptsGet             = "prompts/get"
	MethodCompletionComplete     = "completion/complete"
	MethodLoggingSetLevel        = "logging/setLevel"
	MethodSubscriptionsListen    = "subscriptions/listen"
	MethodSamplingCreateMessage  = "sampling/createMessage"
	MethodRootsList              = "roots/list"
	MethodElicitationCreate      = "elicitation/create"
	MethodTasksGet               = "tasks/get"
	MethodTasksResult            = "tasks/result"
	MethodTasksList              = "tasks/list"
	MethodTasksCancel            = "tasks/cancel"
	MethodTasksUpdate            = "tasks/update"
)

// Notification methods (DIGEST §2.2).
const (
	NotificationInitialized               = "notifications/initialized"
	NotificationCancelled                 = "notifications/cancelled"
	NotificationProgress                  = "notifications/progress"
	NotificationMessage                   = "notifications/message"
	NotificationToolsListChanged          = "notifications/tools/list_changed"
	NotificationPromptsListChanged        = "notifications/prompts/list_changed"
	NotificationResourcesListChanged      = "notifications/resources/list_changed"
	NotificationResourcesUpdated          = "notifications/resources/updated"
	NotificationRootsListChanged          = "notifications/roots/list_changed"
	NotificationElicitationComplete       = "notifications/elicitation/complete"
	NotificationTasksStatus               = "notifications/tasks/status"
	NotificationSubscriptionsAcknowledged = "notifications/subscriptions/acknowledged"
	NotificationTasks                     = "notifications/tasks"
)

// A Direction says which peer sends a method.
type Direction string

// Directions.
const (
	ClientToServer Direction = "client_to_server"
	ServerToClient Direction = "server_to_client"
	Both           Direction = "both"
)

// MethodInfo describes one request or notification method.
type MethodInfo struct {
	// Name is the JSON-RPC method.
	Name string
	// Direction says who sends it. Where it changed between revisions
	// (notifications/progress is S→C only in 2026-07-28) this is the union.
	Direction Direction
	// Notification is true for notifications (no id, no response).
	Notification bool
	// Revisions lists the core revisions in which the method exists as a
	// real JSON-RPC message, oldest first.
	Revisions []Revision
	// InputRequestIn lists revisions in which the method exists only as a
	// bare {method, params} inside an InputRequiredResult (MRTR), such as
	// sampling/createMessage in 2026-07-28.
	InputRequestIn []Revision
	// Extension is the id of the extension that defines the method in
	// modern revisions (the tasks extension), or "".
	Extension string
	// Deprecated is the revision that deprecated the method, or "".
	Deprecated Revision
	// Removed is the first revision without the method as a real message,
	// or "" if it was never removed.
	Removed Revision
	// Cacheable is true when complete results carry CacheableResult hints
	// (ttlMs, cacheScope) in 2026-07-28.
	Cacheable bool
	// Paginated is true when the request takes a cursor and the result may
	// carry nextCursor.
	Paginated bool
	// MayRequireInput is true when a modern server may answer with
	// resultType "input_required" (MRTR-ALLOWED-METHODS).
	MayRequireInput bool
	// CapabilityGate is the capability of the receiving peer that must be
	// advertised for the method to be used, as a dotted path into its
	// capabilities object ("tools", "resources.subscribe"), or "".
	CapabilityGate string
	// NameHeaderFrom names the params field mirrored into the Mcp-Name
	// HTTP header in 2026-07-28 ("params.name", "params.uri",
	// "params.taskId"), or "".
	NameHeaderFrom string
}

var (
	revAll    = []Revision{Rev20241105, Rev20250326, Rev20250618, Rev20251125, Rev20260728}
	revLegacy = []Revision{Rev20241105, Rev20250326, Rev20250618, Rev20251125}
	revModern = []Revision{Rev20260728}
	rev25bc   = []Revision{Rev20250618, Rev20251125}
	rev25c    = []Revision{Rev20251125}
)

// methodTable is the method catalogue. It is data: keep it in the order of
// DIGEST §2 so that reviewing it against the digest is easy.
var methodTable = []MethodInfo{
	// Requests.
	{Name: MethodInitialize, Direction: ClientToServer, Revisions: revLegacy, Removed: Rev20260728},
	{Name: MethodPing, Direction: Both, Revisions: revLegacy, Removed: Rev20260728},
	{Name: MethodDiscover, Direction: ClientToServer, Revisions: revModern, Cacheable: true},
	{Name: MethodToolsList, Direction: ClientToServer, Revisions: revAll, Cacheable: true, Paginated: true, CapabilityGate: "tools"},
	{Name: MethodToolsCall, Direction: ClientToServer, Revisions: revAll, MayRequireInput: true, CapabilityGate: "tools", NameHeaderFrom: "params.name"},
	{Name: MethodResourcesList, Direction: ClientToServer, Revisions: revAll, Cacheable: true, Paginated: true, CapabilityGate: "resources"},
	{Name: MethodResourcesTemplatesList, Direction: ClientToServer, Revisions: revAll, Cacheable: true, Paginated: true, CapabilityGate: "resources"},
	{Name: MethodResourcesRead, Direction: ClientToServer, Revisions: revAll, Cacheable: true, MayRequireInput: true, CapabilityGate: "resources", NameHeaderFrom: "params.uri"},
	{Name: MethodResourcesSubscribe, Direction: ClientToServer, Revisions: revLegacy, Removed: Rev20260728, CapabilityGate: "resources.subscribe"},
	{Name: MethodResourcesUnsubscribe, Direction: ClientToServer, Revisions: revLegacy, Removed: Rev20260728, CapabilityGate: "resources.subscribe"},
	{Name: MethodPromptsList, Direction: ClientToServer, Revisions: revAll, Cacheable: true, Paginated: true, CapabilityGate: "prompts"},
	{Name: MethodPromptsGet, Direction: ClientToServer, Revisions: revAll, MayRequireInput: true, CapabilityGate: "prompts", NameHeaderFrom: "params.name"},
	// 2024-11-05 has completion/complete but no completions capability yet;
	// the gate applies from 2025-03-26.
	{Name: MethodCompletionComplete, Direction: ClientToServer, Revisions: revAll, CapabilityGate: "completions"},
	{Name: MethodLoggingSetLevel, Direction: ClientToServer, Revisions: revLegacy, Removed: Rev20260728, CapabilityGate: "logging"},
	{Name: MethodSubscriptionsListen, Direction: ClientToServer, Revisions: revModern},
	{Name: MethodSamplingCreateMessage, Direction: ServerToClient, Revisions: revLegacy, InputRequestIn: revModern, Deprecated: Rev20260728, Removed: Rev20260728, CapabilityGate: "sampling"},
	{Name: MethodRootsList, Direction: ServerToClient, Revisions: revLegacy, InputRequestIn: revModern, Deprecated: Rev20260728, Removed: Rev20260728, CapabilityGate: "roots"},
	{Name: MethodElicitationCreate, Direction: ServerToClient, Revisions: rev25bc, InputRequestIn: revModern, Removed: Rev20260728, CapabilityGate: "elicitation"},
	// tasks/get and tasks/cancel exist twice: experimental core methods of
	// 2025-11-25 (both directions, not wire-compatible) and C→S methods of
	// the modern tasks extension. Both are described by one entry.
	{Name: MethodTasksGet, Direction: Both, Revisions: rev25c, Extension: ExtTasks, Removed: Rev20260728, CapabilityGate: "tasks", NameHeaderFrom: "params.taskId"},
	{Name: MethodTasksResult, Direction: Both, Revisions: rev25c, Removed: Rev20260728, CapabilityGate: "tasks"},
	{Name: MethodTasksList, Direction: Both, Revisions: rev25c, Removed: Rev20260728, Paginated: true, CapabilityGate: "tasks.list"},
	{Name: MethodTasksCancel, Direction: Both, Revisions: rev25c, Extension: ExtTasks, Removed: Rev20260728, CapabilityGate: "tasks.cancel", NameHeaderFrom: "params.taskId"},
	{Name: MethodTasksUpdate, Direction: ClientToServer, Extension: ExtTasks, NameHeaderFrom: "params.taskId"},

	// Notifications.
	{Name: NotificationInitialized, Direction: ClientToServer, Notification: true, Revisions: revLegacy, Removed: Rev20260728},
	{Name: NotificationCancelled, Direction: Both, Notification: true, Revisions: revAll},
	{Name: NotificationProgress, Direction: Both, Notification: true, Revisions: revAll},
	{Name: NotificationMessage, Direction: ServerToClient, Notification: true, Revisions: revAll, Deprecated: Rev20260728, CapabilityGate: "logging"},
	{Name: NotificationToolsListChanged, Direction: ServerToClient, Notification: true, Revisions: revAll, CapabilityGate: "tools.listChanged"},
	{Name: NotificationPromptsListChanged, Direction: ServerToClient, Notification: true, Revisions: revAll, CapabilityGate: "prompts.listChanged"},
	{Name: NotificationResourcesListChanged, Direction: ServerToClient, Notification: true, Revisions: revAll, CapabilityGate: "resources.listChanged"},
	{Name: NotificationResourcesUpdated, Direction: ServerToClient, Notification: true, Revisions: revAll, CapabilityGate: "resources.subscribe"},
	{Name: NotificationRootsListChanged, Direction: ClientToServer, Notification: true, Revisions: revLegacy, Removed: Rev20260728, CapabilityGate: "roots.listChanged"},
	{Name: NotificationElicitationComplete, Direction: ServerToClient, Notification: true, Revisions: rev25c, Removed: Rev20260728},
	{Name: NotificationTasksStatus, Direction: Both, Notification: true, Revisions: rev25c, Removed: Rev20260728},
	{Name: NotificationSubscriptionsAcknowledged, Direction: ServerToClient, Notification: true, Revisions: revModern},
	{Name: NotificationTasks, Direction: ServerToClient, Notification: true, Extension: ExtTasks},
}

var methodIndex = func() map[string]int {
	m := make(map[string]int, len(methodTable))
	for i, mi := range methodTable {
		m[mi.Name] = i
	}
	return m
}()

// LookupMethod returns the catalogue entry for a method name. Names are
// case-sensitive, as on the wire.
func LookupMethod(name string) (MethodInfo, bool) {
	i, ok := methodIndex[name]
	if !ok {
		return MethodInfo{}, false
	}
	return clone(methodTable[i]), true
}

// clone copies the slices so callers cannot change the table.
func clone(m MethodInfo) MethodInfo {
	m.Revisions = slices.Clone(m.Revisions)
	m.InputRequestIn = slices.Clone(m.InputRequestIn)
	return m
}
