package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/transport"
)

// fakeConn answers each request with a scripted handler keyed by method.
// A handler returning (nil, nil) simulates silence: the call waits for its
// context to end.
type fakeConn struct {
	kind    string
	handler func(m jsonrpc.Message, h http.Header) (*transport.Reply, error)

	mu   sync.Mutex
	sent []jsonrpc.Message
	hdrs []http.Header
}

func (f *fakeConn) Kind() string { return f.kind }
func (f *fakeConn) Close() error { return nil }

func (f *fakeConn) Call(ctx context.Context, c *transport.Call) (*transport.Reply, error) {
	m := jsonrpc.Decode(c.Frame)
	f.mu.Lock()
	f.sent = append(f.sent, m)
	f.hdrs = append(f.hdrs, c.Header)
	f.mu.Unlock()
	if m.Kind == jsonrpc.KindNotification {
		return &transport.Reply{}, nil
	}
	r, err := f.handler(m, c.Header)
	if r == nil && err == nil {
		<-ctx.Done()
		return nil, fault.Incomplete(fmt.Errorf("%w: %v", transport.ErrTimeout, ctx.Err()))
	}
	return r, err
}

func (f *fakeConn) methods() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, m := range f.sent {
		out = append(out, m.Method)
	}
	return out
}

func result(m jsonrpc.Message, res string) *transport.Reply {
	b, _ := jsonrpc.EncodeResult(m.ID, json.RawMessage(res))
	msg := jsonrpc.Decode(b)
	return &transport.Reply{Response: &msg}
}

func rpcError(m jsonrpc.Message, code int64, data string) *transport.Reply {
	var d any
	if data != "" {
		d = json.RawMessage(data)
	}
	b, _ := jsonrpc.EncodeError(m.ID, code, "nope", d)
	msg := jsonrpc.Decode(b)
	return &transport.Reply{Response: &msg}
}

func withHTTP(r *transport.Reply, status int) *transport.Reply {
	if r == nil {
		r = &transport.Reply{}
	}
	r.HTTP = &transport.HTTPInfo{Status: status, Header: http.Header{}}
	return r
}

func metaVersion(t *testing.T, m jsonrpc.Message) string {
	t.Helper()
	var p struct {
		Meta map[string]any `json:"_meta"`
	}
	_ = json.Unmarshal(m.Params, &p)
	v, _ := p.Meta[mcp.MetaProtocolVersion].(string)
	return v
}

const discoverOK = `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete","ttlMs":0,"cacheScope":"public"}`
const initOK = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}`

func TestConnectEraDetection(t *testing.T) {
	tests := []struct {
		name        string
		kind        string
		version     mcp.Revision
		handler     func(t *testing.T) func(m jsonrpc.Message, h http.Header) (*transport.Reply, error)
		wantEra     mcp.Era
		wantVersion string
		wantMethods []string
		wantErr     error
	}{
		{
			name: "discover result means modern",
			kind: "stdio",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					return result(m, discoverOK), nil
				}
			},
			wantEra: mcp.EraModern, wantVersion: "2026-07-28",
			wantMethods: []string{"server/discover"},
		},
		{
			name:    "-32022 retries at a supported modern version, never initialize",
			kind:    "stdio",
			version: "2027-01-01",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					if metaVersion(t, m) != "2026-07-28" {
						return rpcError(m, -32022, `{"supported":["2026-07-28"],"requested":"2027-01-01"}`), nil
					}
					return result(m, discoverOK), nil
				}
			},
			wantEra: mcp.EraModern, wantVersion: "2026-07-28",
			wantMethods: []string{"server/discover", "server/discover"},
		},
		{
			name: "-32601 on discover means legacy: initialize then initialized",
			kind: "stdio",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					if m.Method == "initialize" {
						return result(m, initOK), nil
					}
					return rpcError(m, -32601, ""), nil
				}
			},
			wantEra: mcp.EraLegacy, wantVersion: "2025-11-25",
			wantMethods: []string{"server/discover", "initialize", "notifications/initialized"},
		},
		{
			name: "-32602 on discover is legacy too (no code keying)",
			kind: "stdio",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					if m.Method == "initialize" {
						return result(m, `{"protocolVersion":"2024-11-05","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`), nil
					}
					return rpcError(m, -32602, ""), nil
				}
			},
			wantEra: mcp.EraLegacy, wantVersion: "2024-11-05",
			wantMethods: []string{"server/discover", "initialize", "notifications/initialized"},
		},
		{
			name: "silence on discover means legacy",
			kind: "stdio",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					if m.Method == "initialize" {
						return result(m, initOK), nil
					}
					return nil, nil
				}
			},
			wantEra: mcp.EraLegacy, wantVersion: "2025-11-25",
			wantMethods: []string{"server/discover", "initialize", "notifications/initialized"},
		},
		{
			name: "initialize error with data.supported retries at that version",
			kind: "stdio",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					if m.Method == "initialize" {
						if strings.Contains(string(m.Params), "2025-06-18") {
							return result(m, `{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`), nil
						}
						return rpcError(m, -32602, `{"supported":["2025-06-18"]}`), nil
					}
					return rpcError(m, -32601, ""), nil
				}
			},
			wantEra: mcp.EraLegacy, wantVersion: "2025-06-18",
			wantMethods: []string{"server/discover", "initialize", "initialize", "notifications/initialized"},
		},
		{
			name: "silence everywhere is incomplete evidence",
			kind: "stdio",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) { return nil, nil }
			},
			wantMethods: []string{"server/discover", "initialize"},
			wantErr:     fault.ErrIncomplete,
		},
		{
			name: "HTTP 404 with an empty body means legacy",
			kind: "http",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					if m.Method == "initialize" {
						return withHTTP(result(m, initOK), 200), nil
					}
					return withHTTP(nil, 404), nil
				}
			},
			wantEra: mcp.EraLegacy, wantVersion: "2025-11-25",
			wantMethods: []string{"server/discover", "initialize", "notifications/initialized"},
		},
		{
			name: "HTTP 400 with -32022 in the body is modern",
			kind: "http",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, h http.Header) (*transport.Reply, error) {
					if h.Get("MCP-Protocol-Version") != "2026-07-28" {
						t.Errorf("MCP-Protocol-Version header = %q", h.Get("MCP-Protocol-Version"))
					}
					if h.Get("Mcp-Method") != "server/discover" {
						t.Errorf("Mcp-Method header = %q", h.Get("Mcp-Method"))
					}
					if metaVersion(t, m) == "2026-07-28" && len(h) > 0 {
						return withHTTP(result(m, discoverOK), 200), nil
					}
					return withHTTP(rpcError(m, -32022, `{"supported":["2026-07-28"]}`), 400), nil
				}
			},
			wantEra: mcp.EraModern, wantVersion: "2026-07-28",
			wantMethods: []string{"server/discover"},
		},
		{
			name: "a discover result listing only legacy versions means initialize at the newest of them",
			kind: "http",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					switch {
					case m.Method == "initialize" && strings.Contains(string(m.Params), `"2025-06-18"`):
						return withHTTP(result(m, `{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`), 200), nil
					case m.Method == "initialize":
						t.Errorf("initialize at a version the server did not list: %s", m.Params)
						return withHTTP(rpcError(m, -32602, ""), 200), nil
					case metaVersion(t, m) == "2026-07-28" && m.Method != "server/discover":
						return withHTTP(rpcError(m, -32022, `{"supported":["2025-06-18","2025-03-26"]}`), 400), nil
					}
					// go-sdk's stateful StreamableHTTPHandler: a result,
					// but without the version asked for.
					return withHTTP(result(m, `{"supportedVersions":["2025-06-18","2025-03-26"],"capabilities":{"tools":{}},"resultType":"complete","ttlMs":0,"cacheScope":"public"}`), 200), nil
				}
			},
			wantEra: mcp.EraLegacy, wantVersion: "2025-06-18",
			wantMethods: []string{"server/discover", "initialize", "notifications/initialized"},
		},
		{
			name:    "a discover result listing another modern version retries discover at it",
			kind:    "stdio",
			version: "2027-01-01",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					return result(m, discoverOK), nil
				}
			},
			wantEra: mcp.EraModern, wantVersion: "2026-07-28",
			wantMethods: []string{"server/discover", "server/discover"},
		},
		{
			name: "HTTP 500 with -32603 before any session means legacy",
			kind: "http",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					if m.Method == "initialize" {
						return withHTTP(result(m, initOK), 200), nil
					}
					r := withHTTP(nil, 500)
					r.HTTP.Body = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"No valid session"}}`)
					return r, nil
				}
			},
			wantEra: mcp.EraLegacy, wantVersion: "2025-11-25",
			wantMethods: []string{"server/discover", "initialize", "notifications/initialized"},
		},
		{
			name: "HTTP: unrecognised 405 on both means try HTTP+SSE",
			kind: "http",
			handler: func(t *testing.T) func(jsonrpc.Message, http.Header) (*transport.Reply, error) {
				return func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
					return withHTTP(nil, 405), nil
				}
			},
			wantMethods: []string{"server/discover", "initialize"},
			wantErr:     ErrTrySSE,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := &fakeConn{kind: tt.kind, handler: tt.handler(t)}
			c := New(fc, &Options{Version: tt.version, RequestTimeout: 200 * time.Millisecond, DiscoverTimeout: 50 * time.Millisecond})
			hs, err := c.Connect(context.Background())
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Connect() error = %v, want %v", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatalf("Connect() error = %v", err)
			} else if hs.Era != tt.wantEra || hs.Version != tt.wantVersion {
				t.Errorf("Connect() = %s %s, want %s %s (steps %v)", hs.Era, hs.Version, tt.wantEra, tt.wantVersion, hs.Steps)
			}
			if d := cmp.Diff(tt.wantMethods, fc.methods()); d != "" {
				t.Errorf("methods sent mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestDiscoverProbeHasItsOwnID(t *testing.T) {
	fc := &fakeConn{kind: "stdio", handler: func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
		return result(m, discoverOK), nil
	}}
	c := New(fc, nil)
	if _, err := c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Request(context.Background(), "tools/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	if !fc.sent[0].ID.IsString() || fc.sent[1].ID.String() != "1" {
		t.Errorf("ids = %s, %s; want a string probe id then 1", fc.sent[0].ID, fc.sent[1].ID)
	}
}

func TestModernEnvelope(t *testing.T) {
	fc := &fakeConn{kind: "stdio", handler: func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
		return result(m, discoverOK), nil
	}}
	c := New(fc, &Options{Capabilities: json.RawMessage(`{"elicitation":{}}`), ClientInfo: mcp.Implementation{Name: "t", Version: "9"}})
	if _, err := c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Request(context.Background(), "tools/call", map[string]any{"name": "x", "_meta": map[string]any{"progressToken": 7}}, nil); err != nil {
		t.Fatal(err)
	}
	var p struct {
		Name string                     `json:"name"`
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(fc.sent[1].Params, &p); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for k, v := range p.Meta {
		got[k] = string(v)
	}
	want := map[string]string{
		"progressToken":            "7",
		mcp.MetaProtocolVersion:    `"2026-07-28"`,
		mcp.MetaClientCapabilities: `{"elicitation":{}}`,
		mcp.MetaClientInfo:         `{"name":"t","version":"9"}`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("_meta mismatch (-want +got):\n%s", d)
	}
	// OmitMeta sends the params as given.
	if _, err := c.Request(context.Background(), "tools/list", json.RawMessage(`{}`), &RequestOptions{OmitMeta: true}); err != nil {
		t.Fatal(err)
	}
	if string(fc.sent[2].Params) != `{}` {
		t.Errorf("OmitMeta params = %s, want {}", fc.sent[2].Params)
	}
}

func TestList(t *testing.T) {
	page := func(items string, next *string) string {
		if next == nil {
			return fmt.Sprintf(`{"tools":[%s]}`, items)
		}
		return fmt.Sprintf(`{"tools":[%s],"nextCursor":%q}`, items, *next)
	}
	s := func(v string) *string { return &v }
	tests := []struct {
		name      string
		pages     map[string]string // cursor ("<none>" for the first) → result
		wantPages int
		wantErr   string
	}{
		{"one page", map[string]string{"<none>": page(`{"name":"a"}`, nil)}, 1, ""},
		{"empty-string cursor is a cursor", map[string]string{
			"<none>": page(`{"name":"a"}`, s("")),
			"":       page(`{"name":"b"}`, s("p3")),
			"p3":     page(`{"name":"c"}`, nil),
		}, 3, ""},
		{"cursor loop stops", map[string]string{
			"<none>": page(`{"name":"a"}`, s("p2")),
			"p2":     page(`{"name":"b"}`, s("p2")),
		}, 2, "cursor_loop"},
		{"error mid-way keeps earlier pages", map[string]string{
			"<none>": page(`{"name":"a"}`, s("p2")),
		}, 1, "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := &fakeConn{kind: "stdio", handler: func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
				var p struct {
					Cursor *string `json:"cursor"`
				}
				_ = json.Unmarshal(m.Params, &p)
				key := "<none>"
				if p.Cursor != nil {
					key = *p.Cursor
				}
				if r, ok := tt.pages[key]; ok {
					return result(m, r), nil
				}
				return rpcError(m, -32602, ""), nil
			}}
			c := New(fc, &Options{Era: mcp.EraLegacy})
			lr := c.List(context.Background(), "tools/list")
			if len(lr.Pages) != tt.wantPages {
				t.Errorf("pages = %d, want %d", len(lr.Pages), tt.wantPages)
			}
			gotErr := ""
			if lr.Err != nil {
				gotErr = lr.Err.Kind
			}
			if gotErr != tt.wantErr {
				t.Errorf("error kind = %q, want %q (%v)", gotErr, tt.wantErr, lr.Err)
			}
		})
	}
}

func TestListPageCap(t *testing.T) {
	n := 0
	fc := &fakeConn{kind: "stdio", handler: func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
		n++
		return result(m, fmt.Sprintf(`{"tools":[],"nextCursor":"c%d"}`, n)), nil
	}}
	c := New(fc, &Options{PageCap: 5})
	lr := c.List(context.Background(), "tools/list")
	if lr.Err == nil || lr.Err.Kind != "page_cap" || len(lr.Pages) != 5 {
		t.Errorf("List() = %d pages, err %v; want 5 pages and page_cap", len(lr.Pages), lr.Err)
	}
}

func TestAnswerServerRequest(t *testing.T) {
	ping := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"p1","method":"ping"}`))
	if got := string(AnswerServerRequest(ping)); got != `{"jsonrpc":"2.0","id":"p1","result":{}}` {
		t.Errorf("ping answer = %s", got)
	}
	sampling := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{}}`))
	got := jsonrpc.Decode(AnswerServerRequest(sampling))
	if got.Error == nil || got.Error.Code != -32601 || got.ID.String() != "3" {
		t.Errorf("sampling answer = %s, want -32601 for id 3", got.Raw)
	}
	note := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","method":"notifications/progress"}`))
	if AnswerServerRequest(note) != nil {
		t.Error("a notification got an answer")
	}
}

// A raised request timeout makes the era probe patient too: a node server
// that needs more than five seconds to start on a loaded machine must not
// pass for a legacy server that ignores server/discover.
func TestDiscoverTimeoutFollowsRaisedRequestTimeout(t *testing.T) {
	tests := []struct {
		request, discover, want time.Duration
	}{
		{0, 0, DefaultDiscoverTimeout},
		{2 * time.Second, 0, 2 * time.Second},
		{DefaultRequestTimeout, 0, DefaultDiscoverTimeout},
		{30 * time.Second, 0, 15 * time.Second},
		{30 * time.Second, time.Second, time.Second},
	}
	for _, tt := range tests {
		c := New(&fakeConn{kind: "stdio"}, &Options{RequestTimeout: tt.request, DiscoverTimeout: tt.discover})
		if got := c.Options().DiscoverTimeout; got != tt.want {
			t.Errorf("request %s, discover %s: DiscoverTimeout = %s, want %s", tt.request, tt.discover, got, tt.want)
		}
	}
}

// lateConn is a fakeConn whose era probe, unanswered in time, has a reply
// that came afterwards (a stdio server slow to start answers in order:
// discover, then initialize).
type lateConn struct {
	*fakeConn
	late *jsonrpc.Message
}

func (l *lateConn) LateReply(id jsonrpc.ID) (jsonrpc.Message, bool) {
	if l.late == nil || id.String() != discoverProbeID.String() {
		return jsonrpc.Message{}, false
	}
	return *l.late, true
}

// TestConnectLateDiscover: a discover answered after the fallback decides
// the era as an answer in time would have (before, the era followed the
// machine's load: mcp-searxng's two records differed, one legacy, one
// modern).
func TestConnectLateDiscover(t *testing.T) {
	probe := jsonrpc.Message{ID: discoverProbeID}
	tests := []struct {
		name     string
		late     *transport.Reply
		wantEra  mcp.Era
		wantInit bool
	}{
		{"late modern result", result(probe, discoverOK), mcp.EraModern, false},
		{"late -32601", rpcError(probe, -32601, ""), mcp.EraLegacy, true},
		{"late result listing only legacy versions", result(probe, `{"supportedVersions":["2025-11-25"],"capabilities":{}}`), mcp.EraLegacy, true},
		{"no late answer", nil, mcp.EraLegacy, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := &fakeConn{kind: "stdio", handler: func(m jsonrpc.Message, _ http.Header) (*transport.Reply, error) {
				switch m.Method {
				case mcp.MethodDiscover:
					return nil, nil // silent within the wait
				case mcp.MethodInitialize:
					return result(m, initOK), nil
				}
				return result(m, `{}`), nil
			}}
			conn := &lateConn{fakeConn: fc}
			if tt.late != nil {
				conn.late = tt.late.Response
			}
			c := New(conn, &Options{DiscoverTimeout: 10 * time.Millisecond})
			hs, err := c.Connect(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if hs.Era != tt.wantEra && !(tt.wantEra == mcp.EraLegacy && hs.Era == "") {
				t.Errorf("era %q, want %q; steps %q", hs.Era, tt.wantEra, hs.Steps)
			}
			if got := c.Era(); got != tt.wantEra {
				t.Errorf("client era %q, want %q", got, tt.wantEra)
			}
			if (hs.Initialize != nil) != tt.wantInit {
				t.Errorf("initialize kept: %v, want %v", hs.Initialize != nil, tt.wantInit)
			}
		})
	}
}
