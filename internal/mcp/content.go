package mcp

import (
	"encoding/json"
	"errors"
)

// Content block types (DIGEST §5.1). tool_use and tool_result appear only
// in sampling messages (2025-11-25 on).
const (
	ContentText         = "text"
	ContentImage        = "image"
	ContentAudio        = "audio"
	ContentResourceLink = "resource_link"
	ContentResource     = "resource"
	ContentToolUse      = "tool_use"
	ContentToolResult   = "tool_result"
)

// A ContentBlock is one element of tool results, prompt messages and
// sampling messages. Blocks are a union keyed by "type"; the block is kept
// whole in Raw and only the fields most analysis needs are decoded. Decode
// Raw into a type of your own for the rest.
type ContentBlock struct {
	// Type is the "type" member ("" if absent or not a string).
	Type string
	// Text is the text of a text block.
	Text *string
	// MimeType is set for image, audio and resource_link blocks.
	MimeType *string
	// URI is set for resource_link blocks, and for resource blocks from
	// their embedded contents.
	URI *string
	// Raw is the block exactly as received.
	Raw json.RawMessage
}

var errContentNotObject = errors.New("content block is not a JSON object")

// UnmarshalJSON keeps the block's bytes and decodes the common fields.
func (c *ContentBlock) UnmarshalJSON(b []byte) error {
	var v struct {
		Type     json.RawMessage `json:"type"`
		Text     *string         `json:"text"`
		MimeType *string         `json:"mimeType"`
		URI      *string         `json:"uri"`
		Resource *struct {
			URI *string `json:"uri"`
		} `json:"resource"`
	}
	if len(b) == 0 || b[0] != '{' {
		return errContentNotObject
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = ContentBlock{Raw: append(json.RawMessage(nil), b...), Text: v.Text, MimeType: v.MimeType, URI: v.URI}
	var typ string
	if json.Unmarshal(v.Type, &typ) == nil {
		c.Type = typ
	}
	if c.URI == nil && v.Resource != nil {
		c.URI = v.Resource.URI
	}
	return nil
}

// MarshalJSON writes Raw back unchanged. A block built in Go without Raw
// is written from its decoded fields.
func (c ContentBlock) MarshalJSON() ([]byte, error) {
	if len(c.Raw) > 0 {
		return c.Raw, nil
	}
	return json.Marshal(struct {
		Type     string  `json:"type"`
		Text     *string `json:"text,omitempty"`
		MimeType *string `json:"mimeType,omitempty"`
		URI      *string `json:"uri,omitempty"`
	}{c.Type, c.Text, c.MimeType, c.URI})
}

// TextContent returns a text block.
func TextContent(s string) ContentBlock {
	return ContentBlock{Type: ContentText, Text: &s}
}
