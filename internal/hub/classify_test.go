package hub

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzScanMsg checks the envelope scan against json.Unmarshal: whenever it
// reads a frame, encoding/json reads the same members from it.
func FuzzScanMsg(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","id":2}}`,
		`{"jsonrpc":"2.0","id":"a","result":{"method":"no"}}`, `{"id":null,"error":{"code":1}}`,
		`{"id":1,"ID":2}`, `{"method":"a\u0062"}`, `{"method":1}`, `{"method":null}`, `{"id":1,"id":2}`,
		`[{"id":1,"method":"a"},{"method":"b"}]`, `[]`, `[1]`, `[null]`, `{"\u0069d":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		if m, ok := scanMsg(raw); ok {
			var want wireMsg
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("scanMsg(%q) read it, json.Unmarshal: %v", raw, err)
			}
			if d := cmp.Diff(want, m); d != "" {
				t.Fatalf("scanMsg(%q) mismatch (-json +scan):\n%s", raw, d)
			}
		}
		if elems, ok := scanBatch(raw); ok {
			want := []wireMsg{}
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("scanBatch(%q) read it, json.Unmarshal: %v", raw, err)
			}
			if d := cmp.Diff(want, elems); d != "" {
				t.Fatalf("scanBatch(%q) mismatch (-json +scan):\n%s", raw, d)
			}
		}
	})
}
