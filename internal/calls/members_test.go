package calls

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzMemberDecoder checks the member decoders against json.Unmarshal:
// whenever they read an object, encoding/json reads the same struct.
func FuzzMemberDecoder(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"hi"}],"isError":true,"_meta":{"a":1}}`,
		`{"resultType":"input_required","requestState":"abc","inputRequests":{"x":{}}}`,
		`{"task":{"taskId":"t","status":"working"},"nextCursor":null}`, `{"taskId":null,"status":1}`,
		`{"name":"echo","arguments":{"a":[1,2]},"_meta":{"progressToken":7}}`, `{"progress":1.5,"total":2e3}`,
		`{"Name":"x"}`, `{"name":"a","name":"b"}`, `{"n\u0061me":"x"}`, `{"notifications":{"x":1}}`,
		`{"protocolVersion":"2025-06-18","capabilities":{}}`, `{}`, `[]`, `{"isError":true,"iserror":false}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var p wireParams
		if paramsDecoder().decode(raw, &p) {
			var want wireParams
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("paramsDecoder read %q, json.Unmarshal: %v", raw, err)
			}
			if d := cmp.Diff(want, p); d != "" {
				t.Fatalf("paramsDecoder(%q) mismatch (-json +members):\n%s", raw, d)
			}
		}
		var r wireResult
		if resultDecoder().decode(raw, &r) {
			var want wireResult
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("resultDecoder read %q, json.Unmarshal: %v", raw, err)
			}
			if d := cmp.Diff(want, r); d != "" {
				t.Fatalf("resultDecoder(%q) mismatch (-json +members):\n%s", raw, d)
			}
		}
	})
}

func TestMemberDecoderFieldLimit(t *testing.T) {
	// decode tracks duplicates in a 64-bit set, one bit per field.
	for _, d := range []*memberDecoder{paramsDecoder(), resultDecoder()} {
		if len(d.names) > 64 {
			t.Errorf("wire struct has %d fields, at most 64 supported", len(d.names))
		}
	}
}
