package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/jsonx"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/transport"
)

// DefaultTimeout bounds the replayed request (mcpsnoop's 15 s).
const DefaultTimeout = 15 * time.Second

// Options configure a replay.
type Options struct {
	// Command, Cwd and URL override how the server is reached.
	Command []string
	Cwd     string
	URL     string
	// Header adds HTTP headers (credentials are never recorded).
	Header http.Header
	// WithEnv gives a stdio server only the recorded variable names, with
	// values from Environ (see the package doc).
	WithEnv bool
	Environ func() []string
	// FreshMeta replaces the recorded io.modelcontextprotocol/* _meta
	// entries with the replaying client's own envelope.
	FreshMeta bool
	// Params replaces the request's params (nil keeps them); Set edits
	// them: "arguments.city=Lyon" (the value is JSON if it parses, else
	// a string).
	Params json.RawMessage
	Set    []string
	// ClientVersion is sent in clientInfo.
	ClientVersion string
	Timeout       time.Duration
}

// An Outcome is what the replay sent and got.
type Outcome struct {
	// Target describes where the request went.
	Target  string
	Request []byte
	// Response is the answer's frame (nil when none came).
	Response   []byte
	HTTPStatus int
	Elapsed    time.Duration
	// Changes compare the replayed response with the recorded one (nil
	// when they are the same or nothing was recorded).
	Changes []Change
	// Exact: the recorded request bytes were sent unchanged.
	Exact bool
	// MissingEnv are recorded variable names not set now (WithEnv).
	MissingEnv []string
}

// Spec returns the target a replay of rc connects to.
func Spec(rc *Recorded, opts *Options) (*connect.Spec, error) {
	s := &connect.Spec{Name: rc.Label, Timeout: opts.Timeout}
	switch {
	case len(opts.Command) > 0:
		s.Command = opts.Command
	case opts.URL != "":
		s.URL = opts.URL
	case rc.Transport == session.HTTP && rc.Target != "":
		s.URL = rc.Target
	case len(rc.Command) > 0:
		s.Command = rc.Command
	default:
		return nil, fault.Input(errors.New("the log records no way to reach the server (no start record with a command or target): use --command, --url or -- <server command…>"))
	}
	if len(s.Command) > 0 {
		s.Cwd = rc.Cwd
		if opts.Cwd != "" {
			s.Cwd = opts.Cwd
		}
	}
	if s.URL != "" && len(opts.Header) > 0 {
		s.Headers = opts.Header
	}
	return s, nil
}

// Run connects to the server, sends the request and compares the answer.
func Run(ctx context.Context, rc *Recorded, opts *Options) (*Outcome, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	spec, err := Spec(rc, opts)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Target: describe(spec)}
	env := connect.Env{Environ: opts.Environ}
	if opts.WithEnv && len(spec.Command) > 0 {
		kept, missing := filterEnv(opts.Environ, rc.EnvNames)
		env.Environ = func() []string { return kept }
		out.MissingEnv = missing
	}
	params, edited, err := editParams(rc.Params, opts)
	if err != nil {
		return nil, fault.Input(err)
	}
	copts := &client.Options{ClientInfo: mcp.Implementation{Name: "mcpward-replay", Version: opts.ClientVersion},
		RequestTimeout: opts.Timeout, Capabilities: recordedCaps(rc.Params)}
	sess, err := connect.Connect(ctx, spec, env, copts)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	start := time.Now()
	var reply *transport.Reply
	if !edited && !opts.FreshMeta {
		out.Exact = true
		out.Request = rc.Request
		reply, err = sess.Client.Send(ctx, &transport.Call{Frame: rc.Request, ID: rc.ID, Header: routingHeaders(rc.Header)})
		if err != nil {
			return nil, fault.Incomplete(fmt.Errorf("replay %s: %w", rc.Method, err))
		}
	} else {
		if opts.FreshMeta {
			params = dropEnvelope(params)
		}
		id := rc.ID
		var p any
		if len(params) > 0 {
			p = json.RawMessage(params)
		}
		resp, err := sess.Client.Request(ctx, rc.Method, p, &client.RequestOptions{ID: &id, OmitMeta: !opts.FreshMeta})
		if resp == nil && err != nil {
			return nil, fault.Incomplete(fmt.Errorf("replay %s: %w", rc.Method, err))
		}
		reply = resp.Reply
		if f, e := jsonrpc.EncodeRequest(id, rc.Method, p); e == nil {
			out.Request = f
		}
	}
	out.Elapsed = time.Since(start)
	if reply != nil {
		if reply.HTTP != nil {
			out.HTTPStatus = reply.HTTP.Status
		}
		if reply.Response != nil {
			out.Response = reply.Response.Raw
		}
	}
	if rc.Response != nil && out.Response != nil {
		out.Changes = Compare(rc.Response, out.Response)
	} else if rc.Response != nil || out.Response != nil {
		out.Changes = []Change{{Op: "~", Path: "$", Before: orNone(rc.Response), After: orNone(out.Response)}}
	}
	return out, nil
}

func orNone(b []byte) string {
	if b == nil {
		return "(no response)"
	}
	return short(b)
}

func describe(s *connect.Spec) string {
	if s.URL != "" {
		return s.URL
	}
	return strings.Join(s.Command, " ")
}

// filterEnv keeps the variables of environ whose names were recorded.
func filterEnv(environ func() []string, names []string) (kept, missing []string) {
	var all []string
	if environ != nil {
		all = environ()
	}
	have := map[string]bool{}
	for _, kv := range all {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(names, k) {
			kept = append(kept, kv)
			have[k] = true
		}
	}
	for _, n := range names {
		if !have[n] {
			missing = append(missing, n)
		}
	}
	return kept, missing
}

// routingHeaders keeps the recorded MCP routing headers (the HTTP
// transport sets its own session id and content headers).
func routingHeaders(h map[string][]string) http.Header {
	out := http.Header{}
	for k, v := range h {
		lk := strings.ToLower(k)
		if lk == "mcp-method" || lk == "mcp-name" || lk == "mcp-protocol-version" || strings.HasPrefix(lk, "mcp-param-") {
			out[http.CanonicalHeaderKey(k)] = slices.Clone(v)
		}
	}
	return out
}

func recordedCaps(params json.RawMessage) json.RawMessage {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	return p.Meta["io.modelcontextprotocol/clientCapabilities"]
}

// dropEnvelope removes the io.modelcontextprotocol/* entries of _meta
// (other entries, such as traceparent, stay).
func dropEnvelope(params json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(params, &m) != nil || m == nil {
		return params
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(m["_meta"], &meta) != nil || meta == nil {
		return params
	}
	for k := range meta {
		if strings.HasPrefix(k, "io.modelcontextprotocol/") {
			delete(meta, k)
		}
	}
	if len(meta) == 0 {
		delete(m, "_meta")
	} else {
		m["_meta"], _ = jsonx.Marshal(meta)
	}
	b, err := jsonx.Marshal(m)
	if err != nil {
		return params
	}
	return b
}

// editParams applies --params and --set. It reports whether anything
// changed; unchanged params are returned as recorded.
func editParams(params json.RawMessage, opts *Options) (json.RawMessage, bool, error) {
	edited := false
	if opts.Params != nil {
		if !json.Valid(opts.Params) {
			return nil, false, errors.New("--params is not valid JSON")
		}
		params, edited = opts.Params, true
	}
	if len(opts.Set) == 0 {
		return params, edited, nil
	}
	var root any = map[string]any{}
	if len(params) > 0 {
		dec := json.NewDecoder(bytes.NewReader(params))
		dec.UseNumber()
		if err := dec.Decode(&root); err != nil {
			return nil, false, fmt.Errorf("params: %w", err)
		}
	}
	for _, s := range opts.Set {
		path, val, ok := strings.Cut(s, "=")
		if !ok || path == "" {
			return nil, false, fmt.Errorf("--set %q: want path=value", s)
		}
		var v any
		dec := json.NewDecoder(strings.NewReader(val))
		dec.UseNumber()
		if dec.Decode(&v) != nil || dec.More() {
			v = val
		}
		var err error
		if root, err = setPath(root, strings.Split(path, "."), v); err != nil {
			return nil, false, fmt.Errorf("--set %q: %w", s, err)
		}
	}
	b, err := jsonx.Marshal(root)
	return b, true, err
}

// setPath sets v at path (object members, or array indexes in decimal)
// inside node, creating objects on the way.
func setPath(node any, path []string, v any) (any, error) {
	if len(path) == 0 {
		return v, nil
	}
	switch n := node.(type) {
	case map[string]any:
		child, err := setPath(n[path[0]], path[1:], v)
		if err != nil {
			return nil, err
		}
		n[path[0]] = child
		return n, nil
	case []any:
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 || i >= len(n) {
			return nil, fmt.Errorf("%q is not an index of an array of %d", path[0], len(n))
		}
		child, err := setPath(n[i], path[1:], v)
		if err != nil {
			return nil, err
		}
		n[i] = child
		return n, nil
	case nil:
		return setPath(map[string]any{}, path, v)
	}
	return nil, fmt.Errorf("%q is inside a %T, not an object", path[0], node)
}
