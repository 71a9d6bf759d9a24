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
