package jsonrpc

import (
	"encoding/json"
	"testing"
)

func TestEncode(t *testing.T) {
	tests := []struct {
		name string
		enc  func() ([]byte, error)
		want string
	}{
		{"request", func() ([]byte, error) { return EncodeRequest(IntID(1), "tools/list", map[string]any{"cursor": "a<b"}) },
			`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"a<b"}}`},
		{"request string id no params", func() ([]byte, error) { return EncodeRequest(StringID("x"), "ping", nil) },
			`{"jsonrpc":"2.0","id":"x","method":"ping"}`},
		{"request raw params", func() ([]byte, error) { return EncodeRequest(IntID(2), "m", json.RawMessage(`{"a": 1}`)) },
			`{"jsonrpc":"2.0","id":2,"method":"m","params":{"a":1}}`},
		{"request empty raw params", func() ([]byte, error) { return EncodeRequest(IntID(2), "m", json.RawMessage(nil)) },
			`{"jsonrpc":"2.0","id":2,"method":"m"}`},
		{"notification", func() ([]byte, error) { return EncodeNotification("notifications/initialized", nil) },
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"result", func() ([]byte, error) { return EncodeResult(IntID(3), struct{}{}) },
			`{"jsonrpc":"2.0","id":3,"result":{}}`},
		{"result nil", func() ([]byte, error) { return EncodeResult(StringID("a"), nil) },
			`{"jsonrpc":"2.0","id":"a","result":null}`},
		{"error", func() ([]byte, error) { return EncodeError(IntID(4), -32601, "method not found", nil) },
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"method not found"}}`},
		{"error absent id", func() ([]byte, error) { return EncodeError(ID{}, -32700, "parse error", map[string]int{"at": 3}) },
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error","data":{"at":3}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.enc()
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("encode = %s, want %s", got, tt.want)
			}
			if m := Decode(got); m.Kind == KindInvalid {
				t.Errorf("Decode(encode) invalid: %v", m.Err)
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	if _, err := EncodeRequest(ID{}, "x", nil); err == nil {
		t.Error("EncodeRequest(absent id) succeeded")
	}
	if _, err := EncodeRequest(NullID(), "x", nil); err == nil {
		t.Error("EncodeRequest(null id) succeeded")
	}
	if _, err := EncodeRequest(IntID(1), "x", json.RawMessage("{")); err == nil {
		t.Error("EncodeRequest(bad raw params) succeeded")
	}
	if _, err := EncodeNotification("x", func() {}); err == nil {
		t.Error("EncodeNotification(func) succeeded")
	}
	if _, err := EncodeResult(ID{}, nil); err == nil {
		t.Error("EncodeResult(absent id) succeeded")
	}
}
