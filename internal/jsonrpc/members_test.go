package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzMembers checks Members and Elements against encoding/json: the same
// validity, and the same members and elements, as raw bytes.
func FuzzMembers(f *testing.F) {
	for _, s := range append(validSeeds, `{"a":1,"b":[2,{"c":3}],"d":"x\"y"}`, ` [ {"id":1}, 2 , "x" ] `, `{"a":1 ,}`, `{"a" 1}`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		type member struct{ Name, Value string }
		var got []member
		ok := Members(b, func(name, value []byte) bool {
			got = append(got, member{string(name), string(value)})
			return true
		})
		var wantOK bool
		var want []member
		if json.Valid(b) {
			if t := bytes.TrimSpace(b); t[0] == '{' {
				wantOK = true
				// Walk it with the token decoder to keep order and duplicates.
				dec := json.NewDecoder(bytes.NewReader(t))
				dec.Token()
				for dec.More() {
					off := dec.InputOffset()
					if _, err := dec.Token(); err != nil {
						break
					}
					name := bytes.TrimSpace(t[off:dec.InputOffset()])
					name = bytes.TrimLeft(name, ",")
					name = bytes.TrimSpace(name)
					var v json.RawMessage
					if err := dec.Decode(&v); err != nil {
						break
					}
					want = append(want, member{string(name[1 : len(name)-1]), string(v)})
				}
			}
		}
		if ok != wantOK {
			t.Fatalf("Members(%q) = %v, want %v", b, ok, wantOK)
		}
		if ok {
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("Members(%q) mismatch (-want +got):\n%s", b, d)
			}
		}
		var elems []string
		okE := Elements(b, func(v []byte) bool { elems = append(elems, string(v)); return true })
		var wantE []json.RawMessage
		wantOKE := json.Valid(b) && bytes.TrimSpace(b)[0] == '[' && json.Unmarshal(b, &wantE) == nil
		if okE != wantOKE {
			t.Fatalf("Elements(%q) = %v, want %v", b, okE, wantOKE)
		}
		if okE {
			var gotE []json.RawMessage
			for _, e := range elems {
				gotE = append(gotE, json.RawMessage(e))
			}
			if wantE == nil {
				wantE = []json.RawMessage{}
			}
			if gotE == nil {
				gotE = []json.RawMessage{}
			}
			if d := cmp.Diff(wantE, gotE); d != "" {
				t.Fatalf("Elements(%q) mismatch (-want +got):\n%s", b, d)
			}
		}
	})
}
