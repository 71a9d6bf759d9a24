package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// behavior sketches each probe's answer. A probe with no answer (timeout,
// exit, transport failure) leaves no entry: missing evidence is reported in
// coverage, never recorded as a behaviour.
func (b *builder) behavior(s *Surface, cov *SectionCoverage) {
	probes := b.ev.Probes
	if len(probes) == 0 {
		return
	}
	cov.Attempted = true
	cov.Items = len(probes)
	out := map[string]*Behavior{}
	for _, p := range probes {
		if p.Failure != nil {
			if cov.Error == nil {
				e := *p.Failure
				e.Message = "probe " + p.ID + ": " + e.Message
				cov.Error = &e
			}
			continue
		}
		bh, err := sketchProbe(p)
		if err != nil {
			if cov.Error == nil {
				cov.Error = &SectionError{Kind: "malformed", Message: "probe " + p.ID + ": " + err.Error()}
			}
			continue
		}
		out[p.ID] = bh
	}
	cov.Completed = cov.Error == nil
	if len(out) > 0 {
		s.Behavior = out
	}
}

func sketchProbe(p ProbeEvidence) (*Behavior, error) {
	bh := &Behavior{Tool: p.Tool, HTTPStatus: p.HTTPStatus, ContentType: p.ContentType}
	if len(p.Arguments) > 0 {
		args, err := decodeObject(p.Arguments)
		if err != nil {
			return nil, fmt.Errorf("probe arguments: %w", err)
		}
		for k := range args {
			bh.ArgumentKeys = append(bh.ArgumentKeys, k)
		}
		slices.Sort(bh.ArgumentKeys)
	}
	if len(p.Error) > 0 {
		o, err := decodeObject(p.Error)
		if err != nil {
			return nil, err
		}
		bh.IsError = true
		if n, ok := o["code"].(json.Number); ok {
			if c, err := n.Int64(); err == nil {
				bh.ErrorCode = &c
			}
		}
		return bh, nil
	}
	if len(p.Result) == 0 {
		return nil, errNoAnswer
	}
	v, err := decodeValue(p.Result)
	if err != nil {
		return nil, err
	}
	values := p.Capture == CaptureValues
	r, ok := v.(map[string]any)
	if !ok || !isToolResult(r) {
		bh.StructuredShape = Shape(v)
		return bh, nil
	}
	bh.ResultType = Str(r, "resultType")
	bh.IsError, _ = r["isError"].(bool)
	if blocks, ok := r["content"].([]any); ok {
		bh.ContentBlocks = make([]any, 0, len(blocks))
		for _, blk := range blocks {
			if values {
				bh.ContentBlocks = append(bh.ContentBlocks, maskVolatileKeys(blk))
			} else {
				bh.ContentBlocks = append(bh.ContentBlocks, sketchBlock(blk))
			}
		}
	}
	if sc, ok := r["structuredContent"]; ok {
		if values {
			bh.StructuredContent = maskVolatileKeys(sc)
		} else {
			bh.StructuredShape = Shape(sc)
		}
	}
	if meta, ok := r["_meta"].(map[string]any); ok && len(meta) > 0 {
		bh.MetaKeys = sortedKeys(meta)
	}
	return bh, nil
}

type errString string

func (e errString) Error() string { return string(e) }

const errNoAnswer = errString("no result and no error")

// isToolResult tells a CallToolResult (or an input_required/task result)
// from some other object.
func isToolResult(r map[string]any) bool {
	for _, k := range []string{"content", "structuredContent", "isError", "resultType"} {
		if _, ok := r[k]; ok {
			return true
		}
	}
	return false
}

func sketchBlock(blk any) any {
	o, ok := blk.(map[string]any)
	if !ok {
		return map[string]any{"shape": Shape(blk)}
	}
	typ := Str(o, "type")
	if text, ok := o["text"].(string); ok && typ == "text" {
		sum := sha256.Sum256([]byte(text))
		return map[string]any{"type": "text", "sha256": hex.EncodeToString(sum[:])}
	}
	rest := map[string]any{}
	for k, v := range o {
		if k != "type" {
			rest[k] = v
		}
	}
	return map[string]any{"type": typ, "shape": Shape(rest)}
}

// Shape returns the recursive type sketch of a tree value: scalars become
// "string", "number", "boolean" or "null"; an object {"object": {key:
// shape}}; an array {"array": [distinct element shapes sorted by JCS]}.
func Shape(v any) any {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64, int, int64:
		return "number"
	case string:
		return "string"
	case []any:
		seen := map[string]any{}
		for _, e := range x {
			sh := Shape(e)
			seen[JCSString(sh)] = sh
		}
		keys := make([]string, 0, len(seen))
		for k := range seen {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out := make([]any, 0, len(keys))
		for _, k := range keys {
			out = append(out, seen[k])
		}
		return map[string]any{"array": out}
	case map[string]any:
		fields := make(map[string]any, len(x))
		for k, e := range x {
			fields[k] = Shape(e)
		}
		return map[string]any{"object": fields}
	default:
		return "unknown"
	}
}

// volatileKeys are keys whose values change on every call; inside value
// captures they are replaced by type tokens (matched case-insensitively).
var volatileKeys = map[string]bool{
	"requestid": true, "request_id": true, "traceid": true, "trace_id": true,
	"spanid": true, "span_id": true, "correlationid": true, "correlation_id": true,
	"timestamp": true, "generatedat": true, "generated_at": true, "servedat": true,
	"served_at": true, "etag": true, "nonce": true, "uuid": true,
}

func maskVolatileKeys(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = maskVolatileKeys(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if volatileKeys[strings.ToLower(k)] {
				out[k] = TypeToken(e)
			} else {
				out[k] = maskVolatileKeys(e)
			}
		}
		return out
	default:
		return v
	}
}

var (
	uuidRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	})
	iso8601Re = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$`)
	})
)

// TypeToken is the placeholder a volatile value is replaced with:
// "<iso8601>", "<uuid>", "<string>", "<number>", "<boolean>", "<array>" or
// "<object>"; null stays null.
func TypeToken(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		switch {
		case iso8601Re().MatchString(x):
			return "<iso8601>"
		case uuidRe().MatchString(x):
			return "<uuid>"
		}
		return "<string>"
	case bool:
		return "<boolean>"
	case []any:
		return "<array>"
	case map[string]any:
		return "<object>"
	default:
		return "<number>"
	}
}
