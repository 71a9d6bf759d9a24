// Package jsonx encodes JSON as mcpward writes it everywhere: without HTML
// escaping, so that a server's "<b>" or "&" stays as it was sent instead of
// becoming "\u003cb\u003e" (encoding/json's Marshal escapes them for HTML
// pages; our output is never embedded in HTML unescaped, and the HTML
// report escapes on its own).
//
// It is the one place that turns the escaping off: Marshal and
// MarshalIndent mirror encoding/json's functions of the same names (no
// trailing newline), with that single difference.
package jsonx

import (
	"bytes"
	"encoding/json"
)

// Marshal is [json.Marshal] without HTML escaping: compact, no trailing
// newline.
func Marshal(v any) ([]byte, error) {
	return encode(v, "", "")
}

// MarshalIndent is [json.MarshalIndent] without HTML escaping: each element
// on its own line, starting with prefix and indented by indent, no trailing
// newline.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	return encode(v, prefix, indent)
}

func encode(v any, prefix, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if prefix != "" || indent != "" {
		enc.SetIndent(prefix, indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	// Encode ends every value with one newline; Marshal does not.
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
