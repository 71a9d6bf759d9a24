package fuzz

import (
	"maps"
	"slices"
	"strings"
)

// Answer says what a correct server does with one frame.
type Answer string

const (
	// AnswerNone: a notification or junk that asks for nothing; silence is
	// right.
	AnswerNone Answer = "none"
	// AnswerMaybe: an invalid request whose id cannot be used; an error
	// answer (with one of WantCodes, when given) and silence are both
	// accepted, a crash or a stall is not.
	AnswerMaybe Answer = "maybe"
	// AnswerID: a request with a usable id that the server MUST answer
	// (JSON-RPC 2.0 §4), with one of WantCodes when given.
	AnswerID Answer = "id"
	// AnswerBatch: a JSON array of requests; whether it must be answered
	// depends on the revision (batches were part of 2025-03-26 only).
	AnswerBatch Answer = "batch"
)

// A Frame is one thing the client writes: one line on stdio, one POST body
// on HTTP.
type Frame struct {
	// Bytes are sent verbatim (stdio appends the newline).
	Bytes []byte
	// Answer is what a correct server does with it.
	Answer Answer
	// ID is the request id as JSON, when Answer is AnswerID.
	ID string
	// WantCodes are the JSON-RPC error codes a correct error answer has
	// (any code when empty). Tool cases accept a result with isError: true
	// as well (input validation failures are tool results).
	WantCodes []int
	// Invalid marks a tools/call whose arguments break the input schema:
	// a result without isError means the tool ran them as if valid.
	Invalid bool
	// Header holds HTTP headers that replace the ones mcpward would send
	// (headers that disagree with the body); ignored on stdio.
	Header Header
}

// Clone returns a deep copy of f.
func (f Frame) Clone() Frame {
	f.Bytes = slices.Clone(f.Bytes)
	f.WantCodes = slices.Clone(f.WantCodes)
	if f.Header != nil {
		f.Header = f.Header.Clone()
	}
	return f
}

// A Case is one run on a fresh process or connection: its frames, in order.
type Case struct {
	// Name is the stable id of the case ("json/truncated",
	// "tool/read_file/missing-required/path", "random/17").
	Name string
	// Note says in words what the case sends.
	Note string
	// Tool is the tool a tools/call case calls, "" otherwise.
	Tool   string
	Frames []Frame
	// Transport limits the case to "stdio" or "http"; "" is both.
	Transport string
}

// Clone returns a deep copy of c.
func (c Case) Clone() Case {
	c.Frames = slices.Clone(c.Frames)
	for i := range c.Frames {
		c.Frames[i] = c.Frames[i].Clone()
	}
	return c
}

// A Tool is what the generator needs of a tool the plan may call.
type Tool struct {
	Name string
	// InputSchema is the tool's inputSchema as JSON (an object schema).
	InputSchema []byte
}

// Target is what the cases are generated for: the era and revision the
// server speaks, the transport, and the tools the plan may call.
type Target struct {
	// Era is "modern" (2026-07-28, stateless: the _meta envelope on every
	// request) or "legacy" (an initialize session).
	Era string
	// Version is the revision spoken (2025-11-25, 2026-07-28, ...).
	Version string
	// Transport is "stdio" or "http".
	Transport string
	// Tools are the tools cleared for tools/call, in order.
	Tools []Tool
}

// Modern reports whether the target speaks the modern era.
func (t Target) Modern() bool { return t.Era == "modern" }

// A Header is a set of HTTP headers, keyed by canonical name (as
// net/http's Header, which this pure package does not import).
type Header map[string][]string

// Get returns the first value of key.
func (h Header) Get(key string) string {
	if v := h[CanonicalKey(key)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Add appends a value to key.
func (h Header) Add(key, value string) { k := CanonicalKey(key); h[k] = append(h[k], value) }

// Clone returns a deep copy of h.
func (h Header) Clone() Header {
	out := maps.Clone(h)
	for k, v := range out {
		out[k] = slices.Clone(v)
	}
	return out
}

// CanonicalKey is the canonical form of a header name: each word
// capitalised (mcp-method → Mcp-Method).
func CanonicalKey(k string) string {
	words := strings.Split(strings.ToLower(k), "-")
	for i, w := range words {
		if w != "" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, "-")
}
