package mcp

import (
	"encoding/json"
	"strings"
)

// ClientCapabilities is what a client declares: in initialize params
// (legacy) or in every request's _meta (2026-07-28). Sub-objects are kept
// raw where the spec gives them no fields of their own, since a present
// empty object ({}) is a declaration and absence is not.
type ClientCapabilities struct {
	// Roots is {listChanged?} in legacy revisions, {} in 2026-07-28
	// (deprecated there).
	Roots *RootsCapability `json:"roots,omitempty"`
	// Sampling is {} or, from 2025-11-25, {context?, tools?}.
	Sampling *SamplingCapability `json:"sampling,omitempty"`
	// Elicitation is {} (form only) or {form?, url?} (2025-11-25 on).
	Elicitation *ElicitationCapability `json:"elicitation,omitempty"`
	// Tasks is the 2025-11-25 experimental tasks capability.
	Tasks json.RawMessage `json:"tasks,omitempty"`
	// Experimental holds non-standard capabilities.
	Experimental map[string]json.RawMessage `json:"experimental,omitempty"`
	// Extensions maps extension ids to settings (2026-07-28).
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes ClientCapabilities, keeping unknown members.
func (x *ClientCapabilities) UnmarshalJSON(b []byte) (err error) {
	type alias ClientCapabilities
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes ClientCapabilities with their unknown members.
func (x ClientCapabilities) MarshalJSON() ([]byte, error) {
	type alias ClientCapabilities
	return marshalObject(alias(x), x.Extra)
}

// HasExtension reports whether the client declared extension id.
func (x *ClientCapabilities) HasExtension(id string) bool {
	if x == nil {
		return false
	}
	_, ok := x.Extensions[id]
	return ok
}

// RootsCapability is the client's roots capability.
type RootsCapability struct {
	ListChanged *bool `json:"listChanged,omitempty"`
	Extra       Extra `json:"-"`
}

// UnmarshalJSON decodes a RootsCapability, keeping unknown members.
func (x *RootsCapability) UnmarshalJSON(b []byte) (err error) {
	type alias RootsCapability
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a RootsCapability with its unknown members.
func (x RootsCapability) MarshalJSON() ([]byte, error) {
	type alias RootsCapability
	return marshalObject(alias(x), x.Extra)
}

// SamplingCapability is the client's sampling capability.
type SamplingCapability struct {
	// Context, when present, allows includeContext other than "none".
	Context json.RawMessage `json:"context,omitempty"`
	// Tools, when present, allows tools and toolChoice in requests.
	Tools json.RawMessage `json:"tools,omitempty"`
	Extra Extra           `json:"-"`
}

// UnmarshalJSON decodes a SamplingCapability, keeping unknown members.
func (x *SamplingCapability) UnmarshalJSON(b []byte) (err error) {
	type alias SamplingCapability
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a SamplingCapability with its unknown members.
func (x SamplingCapability) MarshalJSON() ([]byte, error) {
	type alias SamplingCapability
	return marshalObject(alias(x), x.Extra)
}

// ElicitationCapability is the client's elicitation capability.
type ElicitationCapability struct {
	Form  json.RawMessage `json:"form,omitempty"`
	URL   json.RawMessage `json:"url,omitempty"`
	Extra Extra           `json:"-"`
}

// UnmarshalJSON decodes an ElicitationCapability, keeping unknown members.
func (x *ElicitationCapability) UnmarshalJSON(b []byte) (err error) {
	type alias ElicitationCapability
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes an ElicitationCapability with its unknown members.
func (x ElicitationCapability) MarshalJSON() ([]byte, error) {
	type alias ElicitationCapability
	return marshalObject(alias(x), x.Extra)
}

// SupportsForm reports whether form-mode elicitation is declared. An
// empty object means form only, for backward compatibility.
func (x *ElicitationCapability) SupportsForm() bool {
	if x == nil {
		return false
	}
	return rawPresent(x.Form) || !rawPresent(x.URL)
}

// SupportsURL reports whether URL-mode elicitation is declared.
func (x *ElicitationCapability) SupportsURL() bool { return x != nil && rawPresent(x.URL) }

// ServerCapabilities is what a server declares: in InitializeResult
// (legacy) or DiscoverResult (2026-07-28).
type ServerCapabilities struct {
	Prompts   *ListChangedCapability `json:"prompts,omitempty"`
	Resources *ResourcesCapability   `json:"resources,omitempty"`
	Tools     *ListChangedCapability `json:"tools,omitempty"`
	// Logging is {} when declared (deprecated in 2026-07-28).
	Logging json.RawMessage `json:"logging,omitempty"`
	// Completions is {} when declared (2025-03-26 on).
	Completions json.RawMessage `json:"completions,omitempty"`
	// Tasks is the 2025-11-25 experimental tasks capability.
	Tasks json.RawMessage `json:"tasks,omitempty"`
	// Experimental holds non-standard capabilities.
	Experimental map[string]json.RawMessage `json:"experimental,omitempty"`
	// Extensions maps extension ids to settings (2026-07-28).
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes ServerCapabilities, keeping unknown members.
func (x *ServerCapabilities) UnmarshalJSON(b []byte) (err error) {
	type alias ServerCapabilities
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes ServerCapabilities with their unknown members.
func (x ServerCapabilities) MarshalJSON() ([]byte, error) {
	type alias ServerCapabilities
	return marshalObject(alias(x), x.Extra)
}

// HasExtension reports whether the server declared extension id.
func (x *ServerCapabilities) HasExtension(id string) bool {
	if x == nil {
		return false
	}
	_, ok := x.Extensions[id]
	return ok
}

// Declares reports whether the capability at a dotted path such as "tools",
// "resources.subscribe" or "tools.listChanged" is declared. A leaf boolean
// must be true; an object must be present. It is the check behind
// [MethodInfo.CapabilityGate] for server-side gates.
func (x *ServerCapabilities) Declares(path string) bool {
	if x == nil {
		return false
	}
	switch path {
	case "":
		return true
	case "tools":
		return x.Tools != nil
	case "tools.listChanged":
		return x.Tools != nil && isTrue(x.Tools.ListChanged)
	case "prompts":
		return x.Prompts != nil
	case "prompts.listChanged":
		return x.Prompts != nil && isTrue(x.Prompts.ListChanged)
	case "resources":
		return x.Resources != nil
	case "resources.listChanged":
		return x.Resources != nil && isTrue(x.Resources.ListChanged)
	case "resources.subscribe":
		return x.Resources != nil && isTrue(x.Resources.Subscribe)
	case "logging":
		return rawPresent(x.Logging)
	case "completions":
		return rawPresent(x.Completions)
	case "tasks", "tasks.list", "tasks.cancel":
		return rawPresent(x.Tasks)
	}
	return false
}

func isTrue(b *bool) bool { return b != nil && *b }

// ListChangedCapability is the shape of the tools and prompts
// capabilities.
type ListChangedCapability struct {
	ListChanged *bool `json:"listChanged,omitempty"`
	Extra       Extra `json:"-"`
}

// UnmarshalJSON decodes a ListChangedCapability, keeping unknown members.
func (x *ListChangedCapability) UnmarshalJSON(b []byte) (err error) {
	type alias ListChangedCapability
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a ListChangedCapability with its unknown members.
func (x ListChangedCapability) MarshalJSON() ([]byte, error) {
	type alias ListChangedCapability
	return marshalObject(alias(x), x.Extra)
}

// ResourcesCapability is the server's resources capability. In 2026-07-28
// Subscribe means "supports the resourceSubscriptions filter".
type ResourcesCapability struct {
	Subscribe   *bool `json:"subscribe,omitempty"`
	ListChanged *bool `json:"listChanged,omitempty"`
	Extra       Extra `json:"-"`
}

// UnmarshalJSON decodes a ResourcesCapability, keeping unknown members.
func (x *ResourcesCapability) UnmarshalJSON(b []byte) (err error) {
	type alias ResourcesCapability
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a ResourcesCapability with its unknown members.
func (x ResourcesCapability) MarshalJSON() ([]byte, error) {
	type alias ResourcesCapability
	return marshalObject(alias(x), x.Extra)
}

// Declares reports whether the client capability at a dotted path is
// declared: "roots", "roots.listChanged", "sampling", "sampling.context",
// "sampling.tools", "elicitation", "elicitation.form", "elicitation.url",
// "tasks", or an extension id prefixed with "extensions." It is the check
// behind [MethodInfo.CapabilityGate] for client-side gates and behind
// MRTR-CAP-GATED.
func (x *ClientCapabilities) Declares(path string) bool {
	if x == nil {
		return false
	}
	switch path {
	case "":
		return true
	case "roots":
		return x.Roots != nil
	case "roots.listChanged":
		return x.Roots != nil && isTrue(x.Roots.ListChanged)
	case "sampling":
		return x.Sampling != nil
	case "sampling.context":
		return x.Sampling != nil && rawPresent(x.Sampling.Context)
	case "sampling.tools":
		return x.Sampling != nil && rawPresent(x.Sampling.Tools)
	case "elicitation":
		return x.Elicitation != nil
	case "elicitation.form":
		return x.Elicitation.SupportsForm()
	case "elicitation.url":
		return x.Elicitation.SupportsURL()
	case "tasks":
		return rawPresent(x.Tasks)
	}
	if id, ok := strings.CutPrefix(path, "extensions."); ok {
		return x.HasExtension(id)
	}
	return false
}
