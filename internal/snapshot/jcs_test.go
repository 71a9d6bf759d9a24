package snapshot

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

// TestJCSWithoutTransform: where JCS skips jcs.Transform (integers only),
// its bytes are what Transform makes of them, for every surface of the
// golden snapshots and for strings and keys of every escaping class.
func TestJCSWithoutTransform(t *testing.T) {
	var ctl strings.Builder
	for c := range 0x20 {
		ctl.WriteByte(byte(c))
	}
	vals := []any{
		nil, true, "", ctl.String(), "\"\\/<>&\u007f\u0080\u2028\u2029\ufeff😀 é", "\xff\xfe",
		json.Number("0"), json.Number("-1"), json.Number("123456789012345"), json.Number("-999999999999999"),
		map[string]any{"\u00e9": json.Number("1"), "z": []any{}, "a": map[string]any{}, "😀": "x", "\ufb01": "y", "A": nil, ctl.String(): json.Number("7")},
		[]any{json.Number("1"), "a", []any{map[string]any{"k": false}}},
	}
	goldens, _ := filepath.Glob("testdata/*.golden")
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		v, err := decodeValue(b)
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, v)
	}
	skipped := 0
	for i, v := range vals {
		got, err := JCS(v)
		if err != nil {
			t.Fatalf("JCS(vals[%d]): %v", i, err)
		}
		if !canonicalAsWritten(v) {
			continue
		}
		skipped++
		want, err := jcs.Transform(got)
		if err != nil {
			t.Fatalf("Transform of JCS(vals[%d]): %v", i, err)
		}
		if string(got) != string(want) {
			t.Errorf("JCS(vals[%d]) =\n%s\nwant\n%s", i, got, want)
		}
	}
	if skipped < len(vals)/2 {
		t.Errorf("only %d of %d values skip Transform", skipped, len(vals))
	}
	for _, n := range []string{"-0", "01", "1.0", "1e2", "1234567890123456", "0.5", "-"} {
		if canonicalAsWritten(json.Number(n)) {
			t.Errorf("canonicalAsWritten(%s) = true, want false (Transform rewrites it)", n)
		}
	}
}

// TestDigestAllocations: a surface of integers only is digested without
// jcs.Transform parsing it again; digesting these 200 tools allocated
// 298 times per tool with it, 135 without.
func TestDigestAllocations(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"tools":[`)
	for i := range 200 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"name":"tool_%05d","description":"Does thing %d","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"],"enum":[3,1,2]}},"required":["b","a"]},"annotations":{"readOnlyHint":true},"_meta":{"vendor/id":%d}}`, i, i, i)
	}
	sb.WriteString(`]}`)
	ev := cleanEvidence()
	ev.Tools = ListEvidence{Attempted: true, Pages: []json.RawMessage{json.RawMessage(sb.String())}}
	ev.ToolsRepeats = nil
	s, err := Build(ev, nil)
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := SurfaceDigest(&s.Surface); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.0f allocations, %.1f per tool", allocs, allocs/200)
	if perTool := allocs / 200; perTool > 200 {
		t.Errorf("SurfaceDigest() of 200 tools: %.0f allocations, %.1f per tool; want at most 200", allocs, perTool)
	}
}
