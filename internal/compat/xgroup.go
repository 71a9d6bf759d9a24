package compat

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/rules"
)

// xStatic reports every x-mcp-header violation and warning of every
// listed tool (mcp.HeaderBindings does the checking).
func (e *engine) xStatic() {
	for _, t := range e.tools {
		bs, err := mcp.HeaderBindings(t.InputSchema)
		if err != nil {
			continue
		}
		dups := map[string]bool{}
		for _, b := range bs {
			subject := "tools." + t.Name + ".inputSchema"
			if b.PathString != "" {
				subject += "." + b.PathString
			}
			for _, id := range append(append([]string(nil), b.Violations...), b.Warnings...) {
				sub := subject
				if id == mcp.XhdrNotUnique {
					key := strings.ToLower(b.Header)
					if dups[key] {
						continue
					}
					dups[key] = true
					sub = "tools." + t.Name + ".inputSchema.x-mcp-header." + key
				}
				r := rules.MustLookup(id)
				e.finding(r.ID, sub, "", fmt.Sprintf("tool %s: x-mcp-header %q: %s", t.Name, b.Header, r.Summary), nil)
			}
		}
	}
}

// xLive re-sends each probe of a tool with a valid top-level binding three
// ways (HTTP only): header disagreeing with the argument, header missing
// while the argument is present, argument absent (and so no header).
func (e *engine) xLive(ctx context.Context) {
	ids := []string{"xhdr.param_mismatch_accepted", "xhdr.param_missing_accepted", "xhdr.absent_param_rejected"}
	if e.opts.ReadOnly {
		return
	}
	if !e.modern {
		return
	}
	for _, p := range e.opts.Probes {
		t := e.tool(p.Tool)
		if t == nil {
			continue
		}
		bs, err := mcp.HeaderBindings(t.InputSchema)
		if err != nil || !mcp.ToolHeadersValid(bs) {
			continue
		}
		for _, b := range bs {
			if len(b.Path) != 1 || b.Type != "string" {
				continue
			}
			prop, header := b.Path[0], mcp.ParamHeaderPrefix+b.Header
			var args map[string]json.RawMessage
			if json.Unmarshal(p.Arguments, &args) != nil || args == nil {
				args = map[string]json.RawMessage{}
			}
			subject := "tools." + p.Tool + ".inputSchema.properties." + prop
			// 1. Mismatch.
			mm := clone(args)
			mm[prop] = json.RawMessage(`"mcpward-body-value"`)
			ex, code := e.callWith(ctx, p.Tool, mm, withParams(bs, mm, header, []string{"mcpward-header-value"}))
			if code != mcp.CodeHeaderMismatch {
				e.finding(ids[0], subject, "", fmt.Sprintf("%s: %s disagreed with the argument and the server answered %s, not -32020", p.Tool, header, codeWord(code)), ex)
			}
			// 2. Header missing, value present.
			ms := clone(args)
			if _, ok := ms[prop]; !ok {
				ms[prop] = json.RawMessage(`"mcpward-value"`)
			}
			ex, code = e.callWith(ctx, p.Tool, ms, withParams(bs, ms, header, nil))
			if code != mcp.CodeHeaderMismatch {
				e.finding(ids[1], subject, "", fmt.Sprintf("%s: argument %s sent without %s and the server answered %s, not -32020", p.Tool, prop, header, codeWord(code)), ex)
			}
			// 3. Value absent, no header.
			ab := clone(args)
			delete(ab, prop)
			ex, code = e.callWith(ctx, p.Tool, ab, withParams(bs, ab, header, nil))
			if code == mcp.CodeHeaderMismatch {
				e.finding(ids[2], subject, "", fmt.Sprintf("%s: without argument %s (so without %s) the server answered -32020; a header is never expected for an absent value", p.Tool, prop, header), ex)
			}
		}
	}
}

// callWith sends tools/call with the modern envelope, the routing
// headers and extra headers (a nil value removes a header). It returns the
// evidence and the error code (0 for a result, -1 for no answer).
func (e *engine) callWith(ctx context.Context, tool string, a map[string]json.RawMessage, hdr map[string][]string) (*exchangeT, int64) {
	r := e.send(ctx, rawReq{method: mcp.MethodToolsCall, params: map[string]any{"name": tool, "arguments": args(a)}, meta: true, header: hdr})
	switch {
	case r.err != nil:
		return r.ex, -1
	case r.rpcError() != nil:
		return r.ex, r.code()
	}
	return r.ex, 0
}

// withParams builds the Mcp-Param-* headers a conforming client sends for
// arguments, then sets header to value (nil removes it): only the binding
// under test is wrong.
func withParams(bs []mcp.HeaderBinding, a map[string]json.RawMessage, header string, value []string) map[string][]string {
	out := map[string][]string{}
	if pairs, err := mcp.ParamHeaders(bs, args(a)); err == nil {
		for _, kv := range pairs {
			out[kv[0]] = []string{kv[1]}
		}
	}
	out[header] = value
	return out
}

func codeWord(code int64) string {
	switch code {
	case 0:
		return "with a result"
	case -1:
		return "nothing"
	}
	return fmt.Sprintf("error %d", code)
}

func clone(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (e *engine) tool(name string) *toolInfo {
	for i := range e.tools {
		if e.tools[i].Name == name {
			return &e.tools[i]
		}
	}
	return nil
}
