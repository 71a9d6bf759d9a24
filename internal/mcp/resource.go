package mcp

import "encoding/json"

// A Resource is an entry of resources/list (and the body of a
// resource_link content block).
type Resource struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       *string         `json:"title,omitempty"`
	Description *string         `json:"description,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
	MimeType    *string         `json:"mimeType,omitempty"`
	Annotations *Annotations    `json:"annotations,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a Resource, keeping unknown members.
func (x *Resource) UnmarshalJSON(b []byte) (err error) {
	type alias Resource
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a Resource with its unknown members.
func (x Resource) MarshalJSON() ([]byte, error) {
	type alias Resource
	return marshalObject(alias(x), x.Extra)
}

// A ResourceTemplate is an entry of resources/templates/list.
type ResourceTemplate struct {
	// URITemplate is an RFC 6570 template.
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       *string         `json:"title,omitempty"`
	Description *string         `json:"description,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
	MimeType    *string         `json:"mimeType,omitempty"`
	Annotations *Annotations    `json:"annotations,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a ResourceTemplate, keeping unknown members.
func (x *ResourceTemplate) UnmarshalJSON(b []byte) (err error) {
	type alias ResourceTemplate
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a ResourceTemplate with its unknown members.
func (x ResourceTemplate) MarshalJSON() ([]byte, error) {
	type alias ResourceTemplate
	return marshalObject(alias(x), x.Extra)
}
