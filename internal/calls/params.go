package calls

import (
	"bytes"
	"encoding/json"
	"slices"
)

// Meta keys read from requests and notifications.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
)

// Params is the part of a request's or notification's params that
// correlation and the rules read. Raw members are kept as received.
type Params struct {
	// Meta is params._meta (nil when absent).
	Meta map[string]json.RawMessage
	// ProtocolVersion is _meta protocolVersion when it is a string.
	ProtocolVersion string
	HasVersion      bool
	// ClientCaps is _meta clientCapabilities as received (nil: absent).
	ClientCaps json.RawMessage
	// Name is params.name, else params.uri, else params.taskId.
	Name    string
	HasName bool
	// Arguments is params.arguments (tools/call).
	Arguments json.RawMessage
	// ProgressToken is _meta.progressToken as raw JSON.
	ProgressToken string
	// RequestState and InputResponseKeys come from an MRTR retry.
	RequestState      []byte
	HasRequestState   bool
	InputResponseKeys []string
	// Cursor is params.cursor as raw JSON (nil: absent).
	Cursor json.RawMessage
	// RequestID is params.requestId of notifications/cancelled.
	RequestID json.RawMessage
	// Progress and Total are notifications/progress values.
	Progress, Total float64
	HasProgress     bool
	// SubscriptionID is _meta subscriptionId as raw JSON.
	SubscriptionID string
	// Filter is params.notifications of subscriptions/listen.
	Filter *ListenFilter
	// Protocol version and capabilities of an initialize request.
	InitVersion string
	InitCaps    json.RawMessage
	// TaskID and Status of notifications/tasks (flat task object).
	TaskID, Status string
}

type wireParams struct {
	Meta           map[string]json.RawMessage `json:"_meta"`
	Name           json.RawMessage            `json:"name"`
	URI            json.RawMessage            `json:"uri"`
	TaskID         json.RawMessage            `json:"taskId"`
	Arguments      json.RawMessage            `json:"arguments"`
	RequestState   json.RawMessage            `json:"requestState"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	Cursor         json.RawMessage            `json:"cursor"`
	RequestID      json.RawMessage            `json:"requestId"`
	Progress       *float64                   `json:"progress"`
	Total          *float64                   `json:"total"`
	ProgressToken  json.RawMessage            `json:"progressToken"`
	Notifications  json.RawMessage            `json:"notifications"`
	PV             *string                    `json:"protocolVersion"`
	Capabilities   json.RawMessage            `json:"capabilities"`
	Status         *string                    `json:"status"`
}

// ParseParams reads raw params. It never fails: members of the wrong type
// are left unset (the rules judge shapes, correlation only needs values).
func ParseParams(raw json.RawMessage) *Params {
	p := &Params{}
	if len(raw) == 0 {
		return p
	}
	var w wireParams
	if unmarshalParams(raw, &w) != nil {
		return p
	}
	p.Meta = w.Meta
	if v, ok := w.Meta[MetaProtocolVersion]; ok {
		var s string
		if json.Unmarshal(v, &s) == nil {
			p.ProtocolVersion, p.HasVersion = s, true
		}
	}
	if v, ok := w.Meta[MetaClientCapabilities]; ok {
		p.ClientCaps = v
	}
	if v, ok := w.Meta["progressToken"]; ok {
		p.ProgressToken = string(bytes.TrimSpace(v))
	}
	if v, ok := w.Meta[MetaSubscriptionID]; ok {
		p.SubscriptionID = string(bytes.TrimSpace(v))
	}
	for _, r := range []json.RawMessage{w.Name, w.URI, w.TaskID} {
		var s string
		if r != nil && json.Unmarshal(r, &s) == nil {
			p.Name, p.HasName = s, true
			break
		}
	}
	if w.TaskID != nil {
		_ = json.Unmarshal(w.TaskID, &p.TaskID)
	}
	if w.Status != nil {
		p.Status = *w.Status
	}
	p.Arguments = w.Arguments
	if w.RequestState != nil && string(w.RequestState) != "null" {
		p.RequestState, p.HasRequestState = w.RequestState, true
	}
	for k := range w.InputResponses {
		p.InputResponseKeys = append(p.InputResponseKeys, k)
	}
	slices.Sort(p.InputResponseKeys)
	p.Cursor = w.Cursor
	p.RequestID = w.RequestID
	if w.Progress != nil {
		p.Progress, p.HasProgress = *w.Progress, true
	}
	if w.Total != nil {
		p.Total = *w.Total
	}
	if w.ProgressToken != nil {
		p.ProgressToken = string(bytes.TrimSpace(w.ProgressToken))
	}
	if w.Notifications != nil {
		var f ListenFilter
		if json.Unmarshal(w.Notifications, &f) == nil {
			p.Filter = &f
		}
	}
	if w.PV != nil {
		p.InitVersion = *w.PV
	}
	p.InitCaps = w.Capabilities
	return p
}

// A Result is the part of a result object correlation reads.
type Result struct {
	ResultType    string
	HasResultType bool
	// RawResultType is the member as received (nil: absent).
	RawResultType json.RawMessage
	IsError       bool
	RequestState  []byte
	HasState      bool
	InputRequests map[string]json.RawMessage
	TaskID        string
	Status        string
	// NextCursor is raw JSON (nil: absent, so the list is complete).
	NextCursor json.RawMessage
	Meta       map[string]json.RawMessage
	// ProtocolVersion of an initialize result.
	ProtocolVersion string
	// Inner is the result carried by a completed tasks/get.
	Inner json.RawMessage
}

type wireResult struct {
	ResultType      json.RawMessage            `json:"resultType"`
	IsError         json.RawMessage            `json:"isError"`
	RequestState    json.RawMessage            `json:"requestState"`
	InputRequests   map[string]json.RawMessage `json:"inputRequests"`
	TaskID          *string                    `json:"taskId"`
	Status          *string                    `json:"status"`
	NextCursor      json.RawMessage            `json:"nextCursor"`
	Meta            map[string]json.RawMessage `json:"_meta"`
	ProtocolVersion *string                    `json:"protocolVersion"`
	Result          json.RawMessage            `json:"result"`
	Task            *struct {
		TaskID *string `json:"taskId"`
		Status *string `json:"status"`
	} `json:"task"`
}

// ParseResult reads a raw result. It never fails.
func ParseResult(raw json.RawMessage) *Result {
	r := &Result{}
	var w wireResult
	if len(raw) == 0 || unmarshalResult(raw, &w) != nil {
		return r
	}
	r.RawResultType = w.ResultType
	if w.ResultType != nil {
		var s string
		if json.Unmarshal(w.ResultType, &s) == nil {
			r.ResultType, r.HasResultType = s, true
		}
	}
	r.IsError = string(bytes.TrimSpace(w.IsError)) == "true"
	if w.RequestState != nil && string(w.RequestState) != "null" {
		r.RequestState, r.HasState = w.RequestState, true
	}
	r.InputRequests = w.InputRequests
	if w.TaskID != nil {
		r.TaskID = *w.TaskID
	}
	if w.Status != nil {
		r.Status = *w.Status
	}
	if w.Task != nil { // legacy 2025-11-25 CreateTaskResult
		if w.Task.TaskID != nil {
			r.TaskID = *w.Task.TaskID
		}
		if w.Task.Status != nil {
			r.Status = *w.Task.Status
		}
	}
	if w.NextCursor != nil && string(w.NextCursor) != "null" {
		r.NextCursor = w.NextCursor
	}
	r.Meta = w.Meta
	if w.ProtocolVersion != nil {
		r.ProtocolVersion = *w.ProtocolVersion
	}
	r.Inner = w.Result
	return r
}

// terminalTask reports whether a task status is final.
func terminalTask(s string) bool { return s == "completed" || s == "failed" || s == "cancelled" }
