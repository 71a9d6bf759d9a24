package snapshot

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// fastCases are documents where the fast path of Unmarshal must give what
// the strict path gives (or step aside).
var fastCases = []string{
	`{"formatVersion":1}`,
	`{"formatVersion":2}`,
	`{"formatVersion":1.0,"probeSpecHash":"` + strings.Repeat("a", 64) + `"}`,
	`{"formatVersion":1,"surface":{"tools":null}}`,
	`{"formatVersion":1,"surface":{"tools":[null]}}`,
	`{"formatVersion":1,"surface":{"tools":{}}}`,
	`{"formatVersion":1,"surface":{"tools":[1]}}`,
	`{"formatVersion":1,"surface":{"TOOLS":[{"name":"a"}]}}`,
	`{"formatVersion":1,"surface":{"tools":[{"name":"a"}],"tools":[{"name":"b"}]}}`,
	`{"formatVersion":1,"surface":{"tools":[{"name":"a"}],"bogus":1}}`,
	`{"formatVersion":1,"surface":{"tools":[{"name":"a"}]}} trailing`,
	`{"formatVersion":1,"surface":{"toolſ":[{"name":"a"}]}}`,
	`{"formatVersion":1,"ſurface":{"tools":[{"name":"a"}]}}`,
}

func TestUnmarshalFastMatchesStrict(t *testing.T) {
	docs := append([]string(nil), fastCases...)
	goldens, _ := filepath.Glob("testdata/*.golden")
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(b))
	}
	good, at := cleanDoc(t)
	// Values of every kind inside a tool, written as a server may write them.
	tool := `{"name":"0t\u00e9","description":"caf\u00e9 \"q\" \\ \n é 😀 \ud800 x","n":[1,1.0,-0,1e400,2E-3],` +
		`"e":[],"o":{},"b":[true,false,null],"dup":1,"dup":2,"raw":"` + "\xff\xfe caf\xc3\xa9" + `","deep":{"a":{"b":[{"c":[[]]}]}}}`
	withTool := string(good[:at]) + tool + "," + string(good[at:])
	docs = append(docs, string(good), withTool)
	// These must take the fast path; the others may step aside.
	mustFast := map[int]bool{len(docs) - 2: true, len(docs) - 1: true}
	for i := range goldens {
		if !strings.Contains(goldens[i], "partial") && !strings.Contains(goldens[i], "startup") && !strings.Contains(goldens[i], "auth") {
			mustFast[len(fastCases)+i] = true
		}
	}
	// What the strict path refuses inside an entity list, and elsewhere,
	// the fast path must not accept.
	bad := []string{`01`, `1.`, `-`, `1e`, `.5`, `+1`, `tru`, `nul`, `"a` + "\x01" + `"`, `"\x"`, `"\u12"`,
		`[1,]`, `{"a":1,}`, `{"a"}`, `[` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `]`}
	for _, v := range bad {
		frag := `{"name":"0","x":` + v + `},`
		docs = append(docs, string(good[:at])+frag+string(good[at:]))
		docs = append(docs, strings.Replace(string(good), `"formatVersion": 1`, `"formatVersion": 1, "x": `+v, 1))
	}
	docs = append(docs, "\ufeff"+string(good), string(good)+"x", string(good)+" \n\t ")
	mustFast[len(docs)-1] = true
	// Entity digests are read without encoding/json too: a repeated key
	// (the last wins), an escaped one, values that are not digests, the
	// name in another case or twice, and null.
	d1, d2 := "sha256:"+strings.Repeat("1", 64), "sha256:"+strings.Repeat("2", 64)
	for i, v := range []string{
		`"entityDigests": {"tools/x": "` + d1 + `", "tools/\u0078": "` + d2 + `", `,
		`"entityDigests": {"tools/x": 1, `,
		`"entityDigests": {"tools/x": null, `,
		`"entityDigests": {"tools/x": "sha256:x", `,
		`"entityDigests": {}, "EntityDigests": {`,
		`"entityDigests": {}, "entityDigests": {`,
		`"EntityDigests": {`,
		`"entityDigests": null, "surfaceDigest": null, "x": {`,
	} {
		docs = append(docs, strings.Replace(string(good), `"entityDigests": {`, v, 1))
		if i == 0 {
			mustFast[len(docs)-1] = true
		}
	}
	docs = append(docs, strings.Replace(string(good), `"entityDigests": {`, `"entityDigests": null, "x": {`, 1))
	// Names encoding/json matches by Unicode case folding ("ſ" is "s").
	for _, name := range []string{`"prompts"`, `"tools"`, `"surface"`} {
		folded := strings.Replace(name, "s", "ſ", 1)
		i := strings.LastIndex(string(good), name+":")
		if i < 0 {
			t.Fatalf("no %s in the clean snapshot", name)
		}
		docs = append(docs, string(good[:i])+folded+string(good[i+len(name):]))
	}
	for i, doc := range docs {
		for _, lazy := range []bool{false, true} {
			checkFast(t, fmt.Sprintf("doc %d (lazy %v)", i, lazy), []byte(doc), lazy, mustFast[i],
				i == len(fastCases)+len(goldens) || i == len(fastCases)+len(goldens)+1)
		}
	}
}

// checkFast checks that the fast path, lazy or not, gives what the strict
// path gives for doc, or steps aside (which it must not do when mustFast).
func checkFast(t *testing.T, name string, doc []byte, lazy, mustFast, mustBeValid bool) {
	t.Helper()
	strict, serr := unmarshalStrict(doc)
	fast, ok := unmarshalFast(doc, lazy)
	if serr != nil {
		if mustBeValid {
			t.Fatalf("%s: the strict path rejects it: %v", name, serr)
		}
		if ok {
			t.Errorf("%s: fast path accepted what the strict path rejects (%v)", name, serr)
		}
		return
	}
	if !ok {
		if mustFast {
			t.Errorf("%s: a valid snapshot did not take the fast path", name)
		}
		return
	}
	a, _ := Marshal(strict)
	b, _ := Marshal(fast)
	if string(a) != string(b) {
		t.Errorf("%s: fast path marshals to other bytes", name)
	}
	if raw := fast.Surface.RawTools(); lazy && raw != nil {
		if fast.Surface.Tools != nil {
			t.Errorf("%s: tools both held raw and decoded", name)
		}
		if !slices.Equal(fast.Surface.ToolNames(), strict.Surface.ToolNames()) {
			t.Errorf("%s: raw tool names %q, want %q", name, fast.Surface.ToolNames(), strict.Surface.ToolNames())
		}
		for j, rt := range raw {
			o, err := rt.Decode()
			if err != nil || !reflect.DeepEqual(o, strict.Surface.Tools[j]) {
				t.Errorf("%s: tool %d decodes to another tree (%v)", name, j, err)
			}
		}
		if err := fast.Surface.DecodeTools(); err != nil {
			t.Fatalf("%s: DecodeTools: %v", name, err)
		}
		if fast.Surface.RawTools() != nil {
			t.Errorf("%s: tools still held raw after DecodeTools", name)
		}
	}
	if !reflect.DeepEqual(strict, fast) {
		t.Errorf("%s: fast path gives another snapshot", name)
	}
}

func FuzzUnmarshalFast(f *testing.F) {
	for _, c := range fastCases {
		f.Add([]byte(c))
	}
	s, _ := Build(cleanEvidence(), nil)
	good, _ := Marshal(s)
	f.Add(good)
	f.Fuzz(func(t *testing.T, b []byte) {
		checkFast(t, "input", b, false, false, false)
		checkFast(t, "input", b, true, false, false)
	})
}

// TestUnmarshalAllocations: reading a snapshot decodes it once, with keys
// and short strings interned. Reading these 200 tools allocated 123 times
// per tool before (the document decoded twice, every key allocated), 56
// with the fast path alone, 41 once keys were no longer boxed in an
// interface on their way into a map.
func TestUnmarshalAllocations(t *testing.T) {
	b := marshalTools(t, 200, func(i int) string {
		return fmt.Sprintf(`{"name":"tool_%05d","description":"Does thing %d","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"],"enum":[3,1,2]}},"required":["b","a"]},"annotations":{"readOnlyHint":true},"_meta":{"vendor/id":%d}}`, i, i, i)
	})
	checkAllocsPerTool(t, "Unmarshal", Unmarshal, b, 200, 48)
}

// marshalTools returns the clean snapshot with n tools, tool(i) the i-th
// (in name order), as Marshal writes it.
func marshalTools(t *testing.T, n int, tool func(i int) string) []byte {
	t.Helper()
	var sb strings.Builder
	sb.WriteString(`{"tools":[`)
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(tool(i))
	}
	sb.WriteString(`]}`)
	ev := cleanEvidence()
	ev.Tools = ListEvidence{Attempted: true, Pages: []json.RawMessage{json.RawMessage(sb.String())}}
	ev.ToolsRepeats = nil
	s, err := Build(ev, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkAllocsPerTool fails t when read (named name) allocates more than
// most times per tool reading doc, a snapshot of n tools.
func checkAllocsPerTool(t *testing.T, name string, read func([]byte) (*Snapshot, error), doc []byte, n int, most float64) {
	t.Helper()
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := read(doc); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.0f allocations, %.1f per tool", allocs, allocs/float64(n))
	if perTool := allocs / float64(n); perTool > most {
		t.Errorf("%s() of %d tools: %.0f allocations, %.1f per tool; want at most %g", name, n, allocs, perTool, most)
	}
}

// cleanDoc returns the clean snapshot as Marshal writes it, and where a
// tool may go in it: just inside the surface's tools array (the last list
// of that name; the manifest's comes first).
func cleanDoc(t *testing.T) (doc []byte, toolsAt int) {
	t.Helper()
	s, err := Build(cleanEvidence(), nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, err = Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.LastIndex(string(doc), `"tools": [`)
	if at < 0 {
		t.Fatal("no tools array in the clean snapshot")
	}
	return doc, at + len(`"tools": [`)
}
