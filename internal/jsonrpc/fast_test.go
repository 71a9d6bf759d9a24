package jsonrpc

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecodeFast checks Decode (the one-pass decodeFast, falling back to
// decodeStd) against decodeStd alone: the same Message for every input,
// error text included.
func FuzzDecodeFast(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":"a","result":{}}`,
		`{"jsonrpc":"2.0","id":null,"result":{}}`, `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"a","result":1}`, `{"jsonrpc":"1.0","id":1,"result":1}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"result":1}`, `{"jsonrpc":"2.0","\u0069d":1,"result":1}`,
		`{"jsonrpc":"2.0","id":1.5e3,"method":"a\u0062","params":[1]}`, `{"jsonrpc":"2.0","method":"a","params":1}`,
		`[{"jsonrpc":"2.0","method":"a"}]`, ` {"jsonrpc" : "2.0" , "id" : 7 , "result" : null } `, `{}`, `x`,
		`{"jsonrpc":"2.0","id":true,"result":1}`, `{"jsonrpc":"2.0","ID":1,"result":1}`,
		// Error responses.
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error","data":{"at":3}}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1.0,"message":"x"}}`, `{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":99999999999999999999,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-0,"message":"\u00e9"}}`, `{"jsonrpc":"2.0","id":1,"error":{"code":1}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x","code":2}}`, `{"jsonrpc":"2.0","id":1,"error":null}`,
		`{"jsonrpc":"2.0","id":1,"error":{"c\u006fde":1,"message":"x"}}`, `{"jsonrpc":"2.0","error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}`, "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"\xff\"}}",
		// Batches.
		`[]`, ` [ ] `, `[[]]`, `[1,null,"x"]`, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","method":"n"}]`, `[{},`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		want, got := msgView(decodeStd(raw)), msgView(Decode(raw))
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("Decode(%q) mismatch (-decodeStd +Decode):\n%s", raw, d)
		}
	})
}

// view is a Message with comparable fields.
type view struct {
	Raw            []byte
	Kind           Kind
	IDRaw, IDKey   string
	Method         string
	Params, Result []byte
	Error          *ErrorObject
	Batch          []view
	Err            string
}

func msgView(m Message) view {
	v := view{Raw: m.Raw, Kind: m.Kind, IDRaw: string(m.ID.Raw()), IDKey: m.ID.String(), Method: m.Method,
		Params: m.Params, Result: m.Result, Error: m.Error}
	if m.Err != nil {
		v.Err = m.Err.Error()
	}
	for _, e := range m.Batch {
		v.Batch = append(v.Batch, msgView(e))
	}
	return v
}
