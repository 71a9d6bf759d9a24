package jsonrpc

import (
	"fmt"
	"strings"
	"testing"
)

// benchFrames are typical frames of an MCP session: a tools/call request,
// a result with a few KB of text, a notification, a tools/list result of
// 50 tools, and an error response.
func benchFrames() []struct {
	name  string
	frame []byte
} {
	var tools strings.Builder
	tools.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"tools":[`)
	for i := range 50 {
		if i > 0 {
			tools.WriteByte(',')
		}
		fmt.Fprintf(&tools, `{"name":"tool_%d","description":"Does thing %d with <care> & precision.","inputSchema":{"type":"object","properties":{"id":{"type":"string"},"n":{"type":"integer"}},"required":["id"]}}`, i, i)
	}
	tools.WriteString(`]}}`)
	return []struct {
		name  string
		frame []byte
	}{
		{"request", []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"query":"frame 7","limit":10,"filters":{"lang":"go","path":"internal/"}}}}`)},
		{"result4KB", []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + strings.Repeat("lorem ipsum dolor sit amet ", 150) + `"}],"isError":false}}`)},
		{"notification", []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t1","progress":3,"total":10}}`)},
		{"toolsList", []byte(tools.String())},
		{"error", []byte(`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Unknown tool: nope"}}`)},
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, bf := range benchFrames() {
		b.Run(bf.name, func(b *testing.B) {
			b.SetBytes(int64(len(bf.frame)))
			b.ReportAllocs()
			for b.Loop() {
				if m := Decode(bf.frame); m.Kind == KindInvalid {
					b.Fatal(m.Err)
				}
			}
		})
	}
}
