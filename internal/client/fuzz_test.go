package client

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/transport"
)

// hostileSeeds are answers a hostile or broken server gives; $ID stands
// for the id of the request being answered.
var hostileSeeds = []string{
	`{"jsonrpc":"2.0","id":$ID,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}}`,
	`{"jsonrpc":"2.0","id":$ID,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"x"}}}`,
	`{"jsonrpc":"2.0","id":$ID,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}],"nextCursor":"c"}}`,
	`{"jsonrpc":"2.0","id":$ID,"result":{"tools":null,"nextCursor":{"x":1}}}`,
	`{"jsonrpc":"2.0","id":$ID,"error":{"code":-32022,"message":"x","data":{"supported":[1,null,"2025-11-25"]}}}`,
	`{"jsonrpc":"2.0","id":$ID,"error":{"code":"x"}}`,
	`[{"jsonrpc":"2.0","id":$ID,"result":{}},{"jsonrpc":"2.0","id":$ID,"result":{}}]`,
	`{"jsonrpc":"2.0","id":999999999999999999999,"result":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}` + "\n" + `{"jsonrpc":"2.0","id":$ID,"result":{}}`,
	"\x00\xff not json\n{",
	`data: {"jsonrpc":"2.0","id":$ID,"result":{}}` + "\n\n",
	`{"jsonrpc":"2.0","id":$ID,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create"}}}}`,
}

// answer fills $ID in the fuzz template with the id of request line req.
func answer(template []byte, req []byte) []byte {
	id := []byte("null")
	if m := jsonrpc.Decode(req); !m.ID.IsZero() {
		id = m.ID.Raw()
	}
	return bytes.ReplaceAll(template, []byte("$ID"), id)
}

// drive connects and lists tools, prompts and resources, as inspect does.
func drive(conn transport.Conn) {
	c := New(conn, &Options{RequestTimeout: 20 * time.Millisecond, DiscoverTimeout: 10 * time.Millisecond, PageCap: 3})
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		return
	}
	for _, m := range []string{"tools/list", "prompts/list", "resources/list"} {
		c.List(ctx, m)
	}
}

// FuzzClientHostileStdio: the prober's client over stdio facing a server
// that answers each request with arbitrary bytes (the request's id filled
// in), then hangs up: no panic, no hang, whatever the bytes.
func FuzzClientHostileStdio(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, template []byte) {
		conn, srv := transport.Pipe(nil)
		go func() {
			defer srv.Close()
			br := bufio.NewReader(srv.R)
			for range 8 {
				line, err := br.ReadBytes('\n')
				if err != nil {
					return
				}
				if _, err := srv.W.Write(append(answer(template, line), '\n')); err != nil {
					return
				}
			}
		}()
		drive(conn)
	})
}

// FuzzClientHostileHTTP: the same over Streamable HTTP, where the server
// also picks the status and the content type.
func FuzzClientHostileHTTP(f *testing.F) {
	for i, s := range hostileSeeds {
		f.Add([]byte(s), uint16(200+i%3*100), i%2 == 0)
	}
	f.Add([]byte(`{}`), uint16(202), false)
	f.Add([]byte(``), uint16(404), true)
	f.Fuzz(func(t *testing.T, template []byte, status uint16, sse bool) {
		code := int(status)%500 + 100
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			out := answer(template, body)
			if sse {
				w.Header().Set("Content-Type", "text/event-stream")
			} else {
				w.Header().Set("Content-Type", "application/json")
			}
			w.Header().Set("Mcp-Session-Id", "s-"+strconv.Itoa(len(out)))
			w.WriteHeader(code)
			w.Write(out)
		})
		conn, err := transport.NewHTTP(&transport.HTTPOptions{URL: "http://127.0.0.1:1/mcp", RoundTripper: transport.HandlerRoundTripper(h)})
		if err != nil {
			t.Fatal(err)
		}
		drive(conn)
	})
}
