package mcp

import (
	"encoding/json"
)

// A Tool is a tool definition from tools/list.
type Tool struct {
	Name        string  `json:"name"`
	Title       *string `json:"title,omitempty"`
	Description *string `json:"description,omitempty"`
	Icons       []Icon  `json:"icons,omitempty"`
	// InputSchema is required and must be an object schema. It is kept raw:
	// analysis (x-mcp-header, diffs) walks the exact bytes.
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema may be any JSON Schema.
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
	// Execution is 2025-11-25 only ({taskSupport}); removed in 2026-07-28.
	Execution json.RawMessage `json:"execution,omitempty"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a Tool, keeping unknown members.
func (x *Tool) UnmarshalJSON(b []byte) (err error) {
	type alias Tool
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a Tool with its unknown members.
func (x Tool) MarshalJSON() ([]byte, error) {
	type alias Tool
	return marshalObject(alias(x), x.Extra)
}

// DisplayName applies the spec's precedence: title, annotations.title,
// then name.
func (x *Tool) DisplayName() string {
	if x.Title != nil && *x.Title != "" {
		return *x.Title
	}
	if x.Annotations != nil && x.Annotations.Title != nil && *x.Annotations.Title != "" {
		return *x.Annotations.Title
	}
	return x.Name
}

// ToolAnnotations are a tool's self-described behaviour hints. They are
// untrusted unless the server is: show them, never rely on them.
type ToolAnnotations struct {
	Title           *string `json:"title,omitempty"`
	ReadOnlyHint    *bool   `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool   `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool   `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool   `json:"openWorldHint,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes ToolAnnotations, keeping unknown members.
func (x *ToolAnnotations) UnmarshalJSON(b []byte) (err error) {
	type alias ToolAnnotations
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes ToolAnnotations with their unknown members.
func (x ToolAnnotations) MarshalJSON() ([]byte, error) {
	type alias ToolAnnotations
	return marshalObject(alias(x), x.Extra)
}

// ReadOnly returns readOnlyHint with the spec default (false). A nil
// receiver means no annotations at all, so every default applies.
func (x *ToolAnnotations) ReadOnly() bool {
	if x == nil || x.ReadOnlyHint == nil {
		return false
	}
	return *x.ReadOnlyHint
}

// Destructive returns destructiveHint with the spec default (true). The
// hint is meaningful only when the tool is not read-only; this returns the
// hint as declared (or defaulted) regardless.
func (x *ToolAnnotations) Destructive() bool {
	if x == nil || x.DestructiveHint == nil {
		return true
	}
	return *x.DestructiveHint
}

// Idempotent returns idempotentHint with the spec default (false).
func (x *ToolAnnotations) Idempotent() bool {
	if x == nil || x.IdempotentHint == nil {
		return false
	}
	return *x.IdempotentHint
}

// OpenWorld returns openWorldHint with the spec default (true).
func (x *ToolAnnotations) OpenWorld() bool {
	if x == nil || x.OpenWorldHint == nil {
		return true
	}
	return *x.OpenWorldHint
}
