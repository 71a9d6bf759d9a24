package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The benchmarks of SpliceJSON, the proxy's one JSON pass per frame
// (jsonrpc.ValidLine).

func benchFrame() []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("lorem ipsum dolor ", 60000) + `"}]}}`)
}

func BenchmarkSpliceJSON1MB(b *testing.B) {
	fr := benchFrame()
	b.SetBytes(int64(len(fr)))
	for b.Loop() {
		if !SpliceJSON(fr) {
			b.Fatal("not spliceable")
		}
	}
}

func BenchmarkJSONValid1MB(b *testing.B) {
	fr := benchFrame()
	b.SetBytes(int64(len(fr)))
	for b.Loop() {
		json.Valid(fr)
	}
}

// toolsListFrame is proxybench's tools/list result: 5,000 small tool
// objects, dense structure and short strings.
func toolsListFrame() []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"tools":[`)
	for i := range 5000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool_%d","description":"Does thing %d with <care> & precision.","inputSchema":{"type":"object","properties":{"id":{"type":"string"},"n":{"type":"integer"}},"required":["id"]}}`, i, i)
	}
	b.WriteString("]}}")
	return b.Bytes()
}

func BenchmarkSpliceJSONToolsList(b *testing.B) {
	fr := toolsListFrame()
	b.SetBytes(int64(len(fr)))
	for b.Loop() {
		if !SpliceJSON(fr) {
			b.Fatal("not spliceable")
		}
	}
}

// A 1 MB frame of non-ASCII text (accented Latin and CJK), where checking
// UTF-8 cannot take the ASCII shortcut.
func BenchmarkSpliceJSON1MBUnicode(b *testing.B) {
	fr := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("déjà vu 日本語のテキスト ", 30000) + `"}]}}`)
	b.SetBytes(int64(len(fr)))
	for b.Loop() {
		if !SpliceJSON(fr) {
			b.Fatal("not spliceable")
		}
	}
}
