package jsonrpc

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// validBenchFrames are the frames of proxybench's large workloads: a
// 5,000-tool tools/list result (dense structure, short strings), a 1 MB
// result of ASCII text and one of accented Latin and CJK text.
func validBenchFrames() []struct {
	name  string
	frame []byte
} {
	var tl bytes.Buffer
	tl.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"tools":[`)
	for i := range 5000 {
		if i > 0 {
			tl.WriteByte(',')
		}
		fmt.Fprintf(&tl, `{"name":"tool_%d","description":"Does thing %d with <care> & precision.","inputSchema":{"type":"object","properties":{"id":{"type":"string"},"n":{"type":"integer"}},"required":["id"]}}`, i, i)
	}
	tl.WriteString("]}}")
	text := func(s string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + s + `"}]}}`)
	}
	return []struct {
		name  string
		frame []byte
	}{
		{"toolsList", tl.Bytes()},
		{"text1MB", text(strings.Repeat("lorem ipsum dolor ", 60000))},
		{"unicode1MB", text(strings.Repeat("déjà vu 日本語のテキスト ", 30000))},
	}
}

func BenchmarkValidLine(b *testing.B) {
	for _, bf := range validBenchFrames() {
		b.Run(bf.name, func(b *testing.B) {
			b.SetBytes(int64(len(bf.frame)))
			for b.Loop() {
				if !ValidLine(bf.frame) {
					b.Fatal("invalid")
				}
			}
		})
	}
}
