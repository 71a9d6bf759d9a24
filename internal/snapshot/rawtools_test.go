package snapshot

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSnapshotKeysAreTheFields: the one-pass reader steps aside at a
// top-level name the decoder would refuse, so its list must be Snapshot's.
func TestSnapshotKeysAreTheFields(t *testing.T) {
	var names []string
	st := reflect.TypeFor[Snapshot]()
	for i := range st.NumField() {
		name, _, _ := strings.Cut(st.Field(i).Tag.Get("json"), ",")
		names = append(names, name)
	}
	if !slices.Equal(slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(snapshotKeys))) {
		t.Errorf("snapshotKeys = %q, Snapshot's fields are %q", snapshotKeys, names)
	}
}

// TestIsDigestIsTheRegexp: the hand-written checks accept what the
// regexps they replace accepted.
func TestIsDigestIsTheRegexp(t *testing.T) {
	hexRe := regexp.MustCompile(`^[0-9a-f]{64}$`)
	digestRe := regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	h := strings.Repeat("0123456789abcdef", 4)
	cases := []string{"", h, h[:63], h + "0", strings.ToUpper(h), h[:63] + "g", h[:63] + "\n", "sha256:" + h,
		"sha256:" + h[:63], "SHA256:" + h, "sha256:" + h + "\n", "sha256:" + h[:63] + "/", "sha256:" + h[:63] + ":", "sha512:" + h}
	for _, c := range cases {
		if got, want := isHexHash(c), hexRe.MatchString(c); got != want {
			t.Errorf("isHexHash(%q) = %v, want %v", c, got, want)
		}
		if got, want := isDigest(c), digestRe.MatchString(c); got != want {
			t.Errorf("isDigest(%q) = %v, want %v", c, got, want)
		}
	}
}

func TestNesting(t *testing.T) {
	for _, c := range []struct {
		json string
		want int
	}{
		{`1`, 0}, {`{}`, 1}, {`[[],{"a":[{}]}]`, 4}, {`{"[[[[":"{{"}`, 1}, {`["\"[[",[1]]`, 2},
	} {
		if got := nesting([]byte(c.json)); got != c.want {
			t.Errorf("nesting(%s) = %d, want %d", c.json, got, c.want)
		}
	}
}

// TestUnmarshalLazyDeepTool: a tool nested deeper than the tree parser
// goes through the whole-file path, as with Unmarshal; a tool as long
// but shallow is held raw.
func TestUnmarshalLazyDeepTool(t *testing.T) {
	good, at := cleanDoc(t)
	for _, c := range []struct {
		value string
		raw   bool
	}{
		{strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth), false},
		{strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1), true},
		{`"` + strings.Repeat("[", 3*maxDepth) + `"`, true},
	} {
		doc := []byte(string(good[:at]) + `{"name":"0","x":` + c.value + `},` + string(good[at:]))
		lazy, err := UnmarshalLazy(doc)
		if err != nil {
			t.Fatalf("UnmarshalLazy: %v", err)
		}
		if got := lazy.Surface.RawTools() != nil; got != c.raw {
			t.Errorf("tool of %d bytes nested %d deep: held raw %v, want %v", len(c.value), nesting([]byte(c.value))+1, got, c.raw)
		}
		full, err := Unmarshal(doc)
		if err != nil {
			t.Fatalf("Unmarshal: %v", err)
		}
		if err := lazy.Surface.DecodeTools(); err != nil {
			t.Fatalf("DecodeTools: %v", err)
		}
		if !reflect.DeepEqual(full, lazy) {
			t.Errorf("tool nested %d deep: UnmarshalLazy gives another snapshot", nesting([]byte(c.value))+1)
		}
	}
}

// TestUnmarshalLazyAllocations: a lazy read allocates a few times per
// tool, where decoding them took 40.
func TestUnmarshalLazyAllocations(t *testing.T) {
	b := marshalTools(t, 200, func(i int) string {
		return fmt.Sprintf(`{"name":"tool_%05d","description":"Does thing %d","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}`, i, i)
	})
	checkAllocsPerTool(t, "UnmarshalLazy", UnmarshalLazy, b, 200, 8)
}

// TestDecodePair: the new side of a pair decodes to what Decode gives,
// sharing the old side's subtrees where the bytes are equal.
func TestDecodePair(t *testing.T) {
	pairs := []struct{ old, new string }{
		{`{"name":"a","s":{"p":{"x":{"type":"string"}},"r":["x"]}}`, `{"name":"a","s":{"p":{"x":{"type":"string"}},"r":["x","y"]}}`},
		{`{"name":"a","s":{"p":{"x":1}}}`, `{"name":"a","s":[{"p":{"x":1}}]}`},
		{`{"name":"a","s":[1]}`, `{"name":"a","s":{"p":{"x":1}}}`},
		{`{"name":"a","s":{}}`, `{"name":"a","s":{"k":{}},"t":{}}`},
		{`{"name":"a","s":{"k":1,"k":2}}`, `{"name":"a","s":{"k":2,"k":1}}`},
		{`{"name":"a","s":{"k":1}}`, `{"name":"a","s":{"k":1,"k":3}}`},
		{`{"name":"a","s":{"k":{"a":1},"k":{"a":2}}}`, `{"name":"a","s":{"k":{"a":2}}}`},
		{`{"name":"a","s":{"k": {"a":1}}}`, `{"name":"a","s":{"k":{"a":1}}}`},
		{`{"name":"a","d":"caf\u00e9","n":1.0}`, `{"name":"a","d":"café","n":1.0,"e":[]}`},
		{`{"name":"a"}`, `{}`},
		{`{"name":"a","n":1,"m":{"x":1,"y":-1,"z":"1"}}`, `{"name":"a","n":12,"m":{"x":1e3,"y":-1.5,"z":"1"}}`},
		{`{"name":"a","s":{"deep":{"deeper":{"x":[1,{"y":null}]}}}}`, `{"name":"b","s":{"deep":{"deeper":{"x":[1,{"y":false}]}}}}`},
	}
	for _, c := range pairs {
		var d ToolDecoder
		o, n, err := d.DecodePair(RawTool{JSON: []byte(c.old)}, RawTool{JSON: []byte(c.new)})
		if err != nil {
			t.Fatalf("DecodePair(%s, %s): %v", c.old, c.new, err)
		}
		wantO, err := decodeObject([]byte(c.old))
		if err != nil {
			t.Fatal(err)
		}
		wantN, err := decodeObject([]byte(c.new))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(o, wantO) || !reflect.DeepEqual(n, wantN) {
			t.Errorf("DecodePair(%s, %s) = %v, %v; want %v, %v", c.old, c.new, o, n, wantO, wantN)
		}
	}
	// The unchanged parts are the old side's own trees.
	var d ToolDecoder
	o, n, err := d.DecodePair(RawTool{JSON: []byte(pairs[0].old)}, RawTool{JSON: []byte(pairs[0].new)})
	if err != nil {
		t.Fatal(err)
	}
	op := o["s"].(map[string]any)["p"].(map[string]any)
	np := n["s"].(map[string]any)["p"].(map[string]any)
	if reflect.ValueOf(op).UnsafePointer() != reflect.ValueOf(np).UnsafePointer() {
		t.Errorf("an unchanged subtree was decoded twice")
	}
}

func FuzzDecodePair(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,{"c":2}],"d":{}}}`), []byte(`{"a":{"b":[1,{"c":3}],"d":{"e":1}}}`))
	f.Add([]byte(`{"a":{"k":1,"k":2}}`), []byte(`{"a":{"k":2, "k":1}}`))
	f.Add([]byte(`{"a":1,"b":{"c":2}}`), []byte(`{"a":10,"b":{"c":2.5}}`))
	f.Fuzz(func(t *testing.T, old, new []byte) {
		wantO, err1 := decodeObject(old)
		wantN, err2 := decodeObject(new)
		if err1 != nil || err2 != nil || nesting(old) > maxDepth || nesting(new) > maxDepth {
			return
		}
		var d ToolDecoder
		o, n, err := d.DecodePair(RawTool{JSON: old}, RawTool{JSON: new})
		if err != nil {
			t.Fatalf("DecodePair: %v", err)
		}
		if !reflect.DeepEqual(o, wantO) || !reflect.DeepEqual(n, wantN) {
			t.Fatalf("DecodePair = %v, %v; want %v, %v", o, n, wantO, wantN)
		}
	})
}
