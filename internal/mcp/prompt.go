package mcp

import "encoding/json"

// A Prompt is an entry of prompts/list.
type Prompt struct {
	Name        string           `json:"name"`
	Title       *string          `json:"title,omitempty"`
	Description *string          `json:"description,omitempty"`
	Icons       []Icon           `json:"icons,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
	Meta        json.RawMessage  `json:"_meta,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a Prompt, keeping unknown members.
func (x *Prompt) UnmarshalJSON(b []byte) (err error) {
	type alias Prompt
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a Prompt with its unknown members.
func (x Prompt) MarshalJSON() ([]byte, error) {
	type alias Prompt
	return marshalObject(alias(x), x.Extra)
}

// A PromptArgument is one templating argument of a prompt. prompts/get
// arguments are a string-to-string map.
type PromptArgument struct {
	Name        string  `json:"name"`
	Title       *string `json:"title,omitempty"`
	Description *string `json:"description,omitempty"`
	Required    *bool   `json:"required,omitempty"`
	// Extra holds members the schema does not define.
	Extra Extra `json:"-"`
}

// UnmarshalJSON decodes a PromptArgument, keeping unknown members.
func (x *PromptArgument) UnmarshalJSON(b []byte) (err error) {
	type alias PromptArgument
	x.Extra, err = unmarshalObject(b, (*alias)(x))
	return err
}

// MarshalJSON encodes a PromptArgument with its unknown members.
func (x PromptArgument) MarshalJSON() ([]byte, error) {
	type alias PromptArgument
	return marshalObject(alias(x), x.Extra)
}
