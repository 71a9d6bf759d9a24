package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Values of a modern result's resultType (DIGEST §7).
const (
	ResultTypeComplete      = "complete"
	ResultTypeInputRequired = "input_required"
	// ResultTypeTask comes from the tasks extension and is valid only when
	// the extension was negotiated, and only for tools/call.
	ResultTypeTask = "task"
)

// ResultTypeOf returns the resultType member of a raw result object. ok is
// false when the member is absent, null or not a string; legacy servers
// omit it, and RT-ABSENT-IS-COMPLETE says to read absence as "complete".
// A raw value that is not an object also gives ok false.
func ResultTypeOf(raw json.RawMessage) (string, bool) {
	var v struct {
		ResultType *string `json:"resultType"`
	}
	if err := json.Unmarshal(raw, &v); err != nil || v.ResultType == nil {
		return "", false
	}
	return *v.ResultType, true
}

// Cache scopes of CacheableResult.
const (
	CacheScopePublic  = "public"
	CacheScopePrivate = "private"
)

// CacheHints are the CacheableResult fields of a modern result. Both are
// required on complete results of cacheable methods; nil means absent.
type CacheHints struct {
	TTLMs      *int64  `json:"ttlMs,omitempty"`
	CacheScope *string `json:"cacheScope,omitempty"`
}

// EffectiveTTLMs applies DIGEST §6: absent or negative counts as 0.
func (h CacheHints) EffectiveTTLMs() int64 {
	if h.TTLMs == nil || *h.TTLMs < 0 {
		return 0
	}
	return *h.TTLMs
}

// CacheHintsOf extracts the cache hints from any raw result. A ttlMs that
// is not an integer, or a cacheScope that is not a string, is an error
// (the hints found so far are still returned).
func CacheHintsOf(raw json.RawMessage) (CacheHints, error) {
	var v struct {
		TTLMs      json.RawMessage `json:"ttlMs"`
		CacheScope json.RawMessage `json:"cacheScope"`
	}
	var h CacheHints
	if err := json.Unmarshal(raw, &v); err != nil {
		return h, fmt.Errorf("cache hints: %w", err)
	}
	var errs []error
	if rawPresent(v.CacheScope) {
		var s string
		if err := json.Unmarshal(v.CacheScope, &s); err != nil {
			errs = append(errs, fmt.Errorf("cacheScope is not a string: %s", v.CacheScope))
		} else {
			h.CacheScope = &s
		}
	}
	if rawPresent(v.TTLMs) {
		var n int64
		if err := json.Unmarshal(v.TTLMs, &n); err != nil {
			errs = append(errs, fmt.Errorf("ttlMs is not an integer: %s", v.TTLMs))
		} else {
			h.TTLMs = &n
		}
	}
	return h, errors.Join(errs...)
}

// DiscoverResult answers server/discover (2026-07-28).
type DiscoverResult struct {
	ResultType        string             `json:"resultType"`
	SupportedVersions []string           `json:"supportedVersions"`
	Capabilities      ServerCapabilities `json:"capabilities"`
	Instructions      *string            `json:"instructions,omitempty"`
	TTLMs             *int64             `json:"ttlMs,omitempty"`
	CacheScope        *string            `json:"cacheScope,omitempty"`
	// ServerInfo at top level is the pre-release (SEP-2575) shape; the
	// final spec puts it in _meta. Kept so that checkers can flag it.
	ServerInfo *Implementation `json:"serverInfo,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a DiscoverResult, keeping unknown members.
func (x *DiscoverResult) UnmarshalJSON(b []byte) (err error) {
	type alias DiscoverResult
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a DiscoverResult with its unknown members.
func (x DiscoverResult) MarshalJSON() ([]byte, error) {
	type alias DiscoverResult
	return marshalObject(alias(x), x.Extra)
}

// Server returns the server's self-description: _meta serverInfo if
// present, else the pre-release top-level serverInfo, else nil.
func (x *DiscoverResult) Server() *Implementation {
	if impl, err := ServerInfoFromMeta(x.Meta); err == nil && impl != nil {
		return impl
	}
	return x.ServerInfo
}

// Hints returns the result's cache hints.
func (x *DiscoverResult) Hints() CacheHints {
	return CacheHints{TTLMs: x.TTLMs, CacheScope: x.CacheScope}
}

// ServerInfoFromMeta reads io.modelcontextprotocol/serverInfo from a result
// _meta object. It returns nil, nil when the key is absent.
func ServerInfoFromMeta(meta json.RawMessage) (*Implementation, error) {
	if !rawPresent(meta) {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(meta, &m); err != nil {
		return nil, fmt.Errorf("result _meta: %w", err)
	}
	raw, ok := m[MetaServerInfo]
	if !ok || !rawPresent(raw) {
		return nil, nil
	}
	var impl Implementation
	if err := json.Unmarshal(raw, &impl); err != nil {
		return nil, fmt.Errorf("result _meta %s: %w", MetaServerInfo, err)
	}
	return &impl, nil
}

// InitializeParams are the params of a legacy initialize request.
type InitializeParams struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ClientCapabilities `json:"capabilities"`
	ClientInfo      Implementation     `json:"clientInfo"`
	Meta            json.RawMessage    `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes InitializeParams, keeping unknown members.
func (x *InitializeParams) UnmarshalJSON(b []byte) (err error) {
	type alias InitializeParams
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes InitializeParams with their unknown members.
func (x InitializeParams) MarshalJSON() ([]byte, error) {
	type alias InitializeParams
	return marshalObject(alias(x), x.Extra)
}

// InitializeResult answers a legacy initialize request.
type InitializeResult struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ServerCapabilities `json:"capabilities"`
	ServerInfo      Implementation     `json:"serverInfo"`
	Instructions    *string            `json:"instructions,omitempty"`
	Meta            json.RawMessage    `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes an InitializeResult, keeping unknown members.
func (x *InitializeResult) UnmarshalJSON(b []byte) (err error) {
	type alias InitializeResult
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes an InitializeResult with its unknown members.
func (x InitializeResult) MarshalJSON() ([]byte, error) {
	type alias InitializeResult
	return marshalObject(alias(x), x.Extra)
}

// An InputRequest is a bare {method, params} object inside inputRequests
// (no jsonrpc, no id, params need no _meta).
type InputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes an InputRequest, keeping unknown members.
func (x *InputRequest) UnmarshalJSON(b []byte) (err error) {
	type alias InputRequest
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes an InputRequest with its unknown members.
func (x InputRequest) MarshalJSON() ([]byte, error) {
	type alias InputRequest
	return marshalObject(alias(x), x.Extra)
}

// InputRequiredResult is a modern MRTR result: the server needs input
// before it can complete tools/call, resources/read or prompts/get.
type InputRequiredResult struct {
	ResultType    string                  `json:"resultType"`
	InputRequests map[string]InputRequest `json:"inputRequests,omitempty"`
	// RequestState is opaque; clients echo it byte for byte.
	RequestState *string         `json:"requestState,omitempty"`
	Meta         json.RawMessage `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes an InputRequiredResult, keeping unknown members.
func (x *InputRequiredResult) UnmarshalJSON(b []byte) (err error) {
	type alias InputRequiredResult
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes an InputRequiredResult with its unknown members.
func (x InputRequiredResult) MarshalJSON() ([]byte, error) {
	type alias InputRequiredResult
	return marshalObject(alias(x), x.Extra)
}

// Empty reports a violation of MRTR-NONEMPTY: neither inputRequests nor
// requestState is present.
func (x *InputRequiredResult) Empty() bool {
	return x.InputRequests == nil && x.RequestState == nil
}

// CallToolResult answers tools/call with a complete result.
type CallToolResult struct {
	// ResultType is required in 2026-07-28 and absent in legacy results.
	ResultType *string        `json:"resultType,omitempty"`
	Content    []ContentBlock `json:"content"`
	// StructuredContent may be any JSON value (an object in legacy
	// revisions); kept raw.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           *bool           `json:"isError,omitempty"`
	Meta              json.RawMessage `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a CallToolResult, keeping unknown members.
func (x *CallToolResult) UnmarshalJSON(b []byte) (err error) {
	type alias CallToolResult
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a CallToolResult with its unknown members.
func (x CallToolResult) MarshalJSON() ([]byte, error) {
	type alias CallToolResult
	return marshalObject(alias(x), x.Extra)
}

// Failed returns isError with its default (false).
func (x *CallToolResult) Failed() bool { return x.IsError != nil && *x.IsError }

// ListToolsResult answers tools/list. NextCursor nil ends the list; an
// empty string is a valid cursor.
type ListToolsResult struct {
	ResultType *string         `json:"resultType,omitempty"`
	Tools      []Tool          `json:"tools"`
	NextCursor *string         `json:"nextCursor,omitempty"`
	TTLMs      *int64          `json:"ttlMs,omitempty"`
	CacheScope *string         `json:"cacheScope,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a ListToolsResult, keeping unknown members.
func (x *ListToolsResult) UnmarshalJSON(b []byte) (err error) {
	type alias ListToolsResult
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a ListToolsResult with its unknown members.
func (x ListToolsResult) MarshalJSON() ([]byte, error) {
	type alias ListToolsResult
	return marshalObject(alias(x), x.Extra)
}

// ListResourcesResult answers resources/list.
type ListResourcesResult struct {
	ResultType *string         `json:"resultType,omitempty"`
	Resources  []Resource      `json:"resources"`
	NextCursor *string         `json:"nextCursor,omitempty"`
	TTLMs      *int64          `json:"ttlMs,omitempty"`
	CacheScope *string         `json:"cacheScope,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a ListResourcesResult, keeping unknown members.
func (x *ListResourcesResult) UnmarshalJSON(b []byte) (err error) {
	type alias ListResourcesResult
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a ListResourcesResult with its unknown members.
func (x ListResourcesResult) MarshalJSON() ([]byte, error) {
	type alias ListResourcesResult
	return marshalObject(alias(x), x.Extra)
}

// ListResourceTemplatesResult answers resources/templates/list.
type ListResourceTemplatesResult struct {
	ResultType        *string            `json:"resultType,omitempty"`
	ResourceTemplates []ResourceTemplate `json:"resourceTemplates"`
	NextCursor        *string            `json:"nextCursor,omitempty"`
	TTLMs             *int64             `json:"ttlMs,omitempty"`
	CacheScope        *string            `json:"cacheScope,omitempty"`
	Meta              json.RawMessage    `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a ListResourceTemplatesResult, keeping unknown
// members.
func (x *ListResourceTemplatesResult) UnmarshalJSON(b []byte) (err error) {
	type alias ListResourceTemplatesResult
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a ListResourceTemplatesResult with its unknown
// members.
func (x ListResourceTemplatesResult) MarshalJSON() ([]byte, error) {
	type alias ListResourceTemplatesResult
	return marshalObject(alias(x), x.Extra)
}

// ListPromptsResult answers prompts/list.
type ListPromptsResult struct {
	ResultType *string         `json:"resultType,omitempty"`
	Prompts    []Prompt        `json:"prompts"`
	NextCursor *string         `json:"nextCursor,omitempty"`
	TTLMs      *int64          `json:"ttlMs,omitempty"`
	CacheScope *string         `json:"cacheScope,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a ListPromptsResult, keeping unknown members.
func (x *ListPromptsResult) UnmarshalJSON(b []byte) (err error) {
	type alias ListPromptsResult
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a ListPromptsResult with its unknown members.
func (x ListPromptsResult) MarshalJSON() ([]byte, error) {
	type alias ListPromptsResult
	return marshalObject(alias(x), x.Extra)
}

// ReadResourceResult answers resources/read with a complete result.
type ReadResourceResult struct {
	ResultType *string            `json:"resultType,omitempty"`
	Contents   []ResourceContents `json:"contents"`
	TTLMs      *int64             `json:"ttlMs,omitempty"`
	CacheScope *string            `json:"cacheScope,omitempty"`
	Meta       json.RawMessage    `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a ReadResourceResult, keeping unknown members.
func (x *ReadResourceResult) UnmarshalJSON(b []byte) (err error) {
	type alias ReadResourceResult
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a ReadResourceResult with its unknown members.
func (x ReadResourceResult) MarshalJSON() ([]byte, error) {
	type alias ReadResourceResult
	return marshalObject(alias(x), x.Extra)
}

// GetPromptResult answers prompts/get with a complete result.
type GetPromptResult struct {
	ResultType  *string         `json:"resultType,omitempty"`
	Description *string         `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a GetPromptResult, keeping unknown members.
func (x *GetPromptResult) UnmarshalJSON(b []byte) (err error) {
	type alias GetPromptResult
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a GetPromptResult with its unknown members.
func (x GetPromptResult) MarshalJSON() ([]byte, error) {
	type alias GetPromptResult
	return marshalObject(alias(x), x.Extra)
}
