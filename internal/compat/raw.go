package compat

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"sync/atomic"

	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/transport"
)

// rawIDs numbers the deliberately built requests (9001…, as snapgauge did,
// so they stand out in a server's log).
var rawIDs atomic.Int64

func init() { rawIDs.Store(9000) }

// rawReq is one deliberately built request.
type rawReq struct {
	httpMethod string // "" = POST
	method     string // JSON-RPC method ("" = no body)
	params     map[string]any
	notify     bool
	// meta adds the modern envelope at version (with caps {}).
	meta    bool
	version string
	// header overrides the defaults; a nil value removes the header.
	header map[string][]string
	// noDefaults sends only header (plus Content-Type and Accept).
	noDefaults bool
	// metaKeys, when set, keeps only these keys of the envelope (a partial
	// _meta).
	metaKeys []string
	// caps replaces the declared capabilities ({}) in the envelope.
	caps json.RawMessage
	// paramHeaders adds the Mcp-Param-* headers of the tool's bindings.
	paramHeaders bool
	// sess sends on another session than the one under test.
	sess *connect.Session
	// legacy marks a call on a legacy profile's session: its error code is
	// a legacy answer, which the 2026-07-28 code rules do not judge.
	legacy bool
}

type rawResp struct {
	reply *transport.Reply
	err   error
	ex    *result.Exchange
}

// status returns the HTTP status (0 without one).
func (r rawResp) status() int {
	if r.reply == nil || r.reply.HTTP == nil {
		return 0
	}
	return r.reply.HTTP.Status
}

// rpcError returns the JSON-RPC error of the answer, or nil.
func (r rawResp) rpcError() *jsonrpc.ErrorObject {
	if r.reply == nil {
		return nil
	}
	if r.reply.Response != nil {
		return r.reply.Response.Error
	}
	if r.reply.HTTP != nil && len(r.reply.HTTP.Body) > 0 {
		m := jsonrpc.Decode(r.reply.HTTP.Body)
		if m.Kind == jsonrpc.KindError {
			return m.Error
		}
	}
	return nil
}

// ok reports a 200 with a JSON-RPC result.
func (r rawResp) ok() bool {
	return r.status() == 200 && r.reply.Response != nil && r.reply.Response.Error == nil && r.reply.Response.Result != nil
}

func (r rawResp) code() int64 {
	if e := r.rpcError(); e != nil {
		return e.Code
	}
	return 0
}

// send puts one deliberately built request on the wire, with exact
// evidence: the frame as sent, the headers set, the status and the body.
func (e *engine) send(ctx context.Context, q rawReq) rawResp {
	version := q.version
	if version == "" {
		version = rules.ModernVersion
	}
	var frame []byte
	var id jsonrpc.ID
	if q.method != "" {
		params := map[string]any{}
		for k, v := range q.params {
			params[k] = v
		}
		if q.meta {
			meta := map[string]any{
				mcp.MetaProtocolVersion:    version,
				mcp.MetaClientCapabilities: capsOr(q.caps),
				mcp.MetaClientInfo:         mcp.Implementation{Name: "mcpward", Version: "compat"},
			}
			if q.metaKeys != nil {
				maps.DeleteFunc(meta, func(k string, _ any) bool { return !slices.Contains(q.metaKeys, k) })
			}
			params["_meta"] = meta
		}
		if q.notify {
			frame, _ = jsonrpc.EncodeNotification(q.method, params)
		} else {
			id = jsonrpc.IntID(rawIDs.Add(1))
			frame, _ = jsonrpc.EncodeRequest(id, q.method, params)
		}
	}
	hdr := http.Header{}
	if !q.noDefaults && q.method != "" {
		hdr.Set("MCP-Protocol-Version", version)
		hdr.Set("Mcp-Method", q.method)
		if name, ok := q.params["name"].(string); ok && (q.method == mcp.MethodToolsCall || q.method == mcp.MethodPromptsGet) {
			hdr.Set("Mcp-Name", mcp.EncodeHeaderValue(name))
		}
	}
	if q.paramHeaders && q.method == mcp.MethodToolsCall {
		name, _ := q.params["name"].(string)
		if t := e.tool(name); t != nil {
			if bs, err := mcp.HeaderBindings(t.InputSchema); err == nil {
				a, _ := q.params["arguments"].(json.RawMessage)
				if pairs, err := mcp.ParamHeaders(bs, a); err == nil {
					for _, kv := range pairs {
						hdr.Set(kv[0], kv[1])
					}
				}
			}
		}
	}
	for k, v := range q.header {
		hdr[http.CanonicalHeaderKey(k)] = v
	}
	shown := map[string]string{}
	for k, v := range hdr {
		if len(v) == 0 {
			shown[k] = "(omitted)"
		} else {
			shown[k] = v[0]
		}
	}
	call := &transport.Call{Frame: frame, ID: id, Header: hdr, HTTPMethod: q.httpMethod}
	sess := e.s
	if q.sess != nil {
		sess = q.sess
	}
	reply, err := sess.Client.Send(ctx, call)
	ex := &result.Exchange{Request: compactJSON(frame)}
	if k := sess.Conn.Kind(); k == "http" || k == "sse" {
		// Headers and the HTTP method exist only on HTTP; on stdio they
		// would be evidence of something never sent.
		ex.RequestHeader, ex.Method = shown, cmp.Or(q.httpMethod, http.MethodPost)
	}
	if err != nil {
		ex.Note = "no answer: " + oneLine(err.Error())
	}
	if reply != nil && reply.HTTP != nil {
		ex.Status = reply.HTTP.Status
		switch {
		case reply.Response != nil:
			ex.Response = compactJSON(reply.Response.Raw)
		case len(reply.HTTP.Body) > 0:
			ex.Response = compactJSON(truncate(reply.HTTP.Body, 2048))
		}
		if reply.HTTP.ContentType != "" && ex.Note == "" {
			ex.Note = "response Content-Type: " + reply.HTTP.ContentType
		}
	} else if reply != nil && reply.Response != nil {
		ex.Response = compactJSON(reply.Response.Raw)
	}
	r := rawResp{reply: reply, err: err, ex: ex}
	if c := r.code(); c != 0 && !q.legacy {
		e.noteExchange(c, ex)
	}
	return r
}

func capsOr(c json.RawMessage) any {
	if len(c) == 0 {
		return map[string]any{}
	}
	return c
}

func truncate(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return append(append([]byte(nil), b[:n]...), []byte("…")...)
}

// args marshals tool arguments for a rawReq.
func args(m map[string]json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(m)
	return b
}
