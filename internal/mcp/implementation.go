package mcp

import "encoding/json"

// Implementation identifies a client or server (name and version are
// required). It is self-reported: use it for display and logs only.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Title is 2025-06-18 and later.
	Title *string `json:"title,omitempty"`
	// Description, Icons and WebsiteURL are 2025-11-25 and later.
	Description *string `json:"description,omitempty"`
	Icons       []Icon  `json:"icons,omitempty"`
	WebsiteURL  *string `json:"websiteUrl,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes an Implementation, keeping unknown members.
func (x *Implementation) UnmarshalJSON(b []byte) (err error) {
	type alias Implementation
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes an Implementation with its unknown members.
func (x Implementation) MarshalJSON() ([]byte, error) {
	type alias Implementation
	return marshalObject(alias(x), x.Extra)
}

// An Icon is a sized image a client may display (2025-11-25 and later).
type Icon struct {
	Src      string   `json:"src"`
	MimeType *string  `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	// Theme is "light" or "dark".
	Theme *string `json:"theme,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes an Icon, keeping unknown members.
func (x *Icon) UnmarshalJSON(b []byte) (err error) {
	type alias Icon
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes an Icon with its unknown members.
func (x Icon) MarshalJSON() ([]byte, error) {
	type alias Icon
	return marshalObject(alias(x), x.Extra)
}

// Annotations are display hints on resources and content blocks.
type Annotations struct {
	// Audience holds "user" and/or "assistant".
	Audience []string `json:"audience,omitempty"`
	// Priority is 0 (optional) to 1 (required).
	Priority *float64 `json:"priority,omitempty"`
	// LastModified is an ISO 8601 timestamp.
	LastModified *string `json:"lastModified,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes Annotations, keeping unknown members.
func (x *Annotations) UnmarshalJSON(b []byte) (err error) {
	type alias Annotations
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes Annotations with their unknown members.
func (x Annotations) MarshalJSON() ([]byte, error) {
	type alias Annotations
	return marshalObject(alias(x), x.Extra)
}

// rawPresent reports whether a raw member was present on the wire. A
// member written as null counts as absent, as the spec treats null
// capability objects as not declared.
func rawPresent(r json.RawMessage) bool {
	return len(r) > 0 && string(r) != "null"
}
