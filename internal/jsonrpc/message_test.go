package jsonrpc

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		kind    Kind
		id      string // ID.String()
		idRaw   string
		method  string
		params  string
		result  string
		errCode int64
		wantErr error // errors.Is target when KindInvalid
	}{
		{name: "request int id", in: `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}`, kind: KindRequest, id: "7", idRaw: "7", method: "tools/list", params: "{}"},
		{name: "request string id", in: `{"jsonrpc":"2.0","id":"abc","method":"ping"}`, kind: KindRequest, id: `"abc"`, idRaw: `"abc"`, method: "ping"},
		{name: "request escaped string id", in: `{"jsonrpc":"2.0","id":"\u0061b","method":"ping"}`, kind: KindRequest, id: `"ab"`, idRaw: `"\u0061b"`, method: "ping"},
		{name: "request big id", in: `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"x"}`, kind: KindRequest, id: "123456789012345678901234567890", idRaw: "123456789012345678901234567890", method: "x"},
		{name: "request fractional id kept", in: `{"jsonrpc":"2.0","id":1.50,"method":"x"}`, kind: KindRequest, id: "1.50", idRaw: "1.50", method: "x"},
		{name: "request params array", in: `{"jsonrpc":"2.0","id":1,"method":"x","params":[1,2]}`, kind: KindRequest, id: "1", idRaw: "1", method: "x", params: "[1,2]"},
		{name: "notification", in: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, kind: KindNotification, method: "notifications/initialized"},
		{name: "whitespace around", in: " \t{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\r\n", kind: KindNotification, method: "n"},
		{name: "result", in: `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`, kind: KindResult, id: "1", idRaw: "1", result: `{"tools":[]}`},
		{name: "result null", in: `{"jsonrpc":"2.0","id":1,"result":null}`, kind: KindResult, id: "1", idRaw: "1", result: "null"},
		{name: "error", in: `{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no such method"}}`, kind: KindError, id: `"x"`, idRaw: `"x"`, errCode: -32601},
		{name: "error null id", in: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, kind: KindError, id: "null", idRaw: "null", errCode: -32700},
		{name: "extra members ignored", in: `{"jsonrpc":"2.0","id":1,"result":{},"extra":true}`, kind: KindResult, id: "1", idRaw: "1", result: "{}"},

		{name: "empty", in: ``, wantErr: ErrNotJSON},
		{name: "spaces", in: `   `, wantErr: ErrNotJSON},
		{name: "not json", in: `hello`, wantErr: ErrNotJSON},
		{name: "truncated", in: `{"jsonrpc":"2.0","id":1`, wantErr: ErrNotJSON},
		{name: "trailing garbage", in: `{"jsonrpc":"2.0","method":"x"} x`, wantErr: ErrNotJSON},
		{name: "string", in: `"hello"`, wantErr: ErrNotObject},
		{name: "number", in: `42`, wantErr: ErrNotObject},
		{name: "null", in: `null`, wantErr: ErrNotObject},
		{name: "missing version", in: `{"id":1,"method":"x"}`, id: "1", idRaw: "1", method: "x", wantErr: ErrVersion},
		{name: "wrong version", in: `{"jsonrpc":"1.0","id":1,"method":"x"}`, id: "1", idRaw: "1", method: "x", wantErr: ErrVersion},
		{name: "version number", in: `{"jsonrpc":2.0,"id":1,"method":"x"}`, id: "1", idRaw: "1", method: "x", wantErr: ErrVersion},
		{name: "both result and error", in: `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`, id: "1", idRaw: "1", result: "{}", errCode: 1, wantErr: ErrShape},
		{name: "method and result", in: `{"jsonrpc":"2.0","id":1,"method":"x","result":{}}`, id: "1", idRaw: "1", method: "x", result: "{}", wantErr: ErrShape},
		{name: "nothing", in: `{"jsonrpc":"2.0","id":1}`, id: "1", idRaw: "1", wantErr: ErrShape},
		{name: "null id on request", in: `{"jsonrpc":"2.0","id":null,"method":"x"}`, id: "null", idRaw: "null", method: "x", wantErr: ErrBadID},
		{name: "null id on result", in: `{"jsonrpc":"2.0","id":null,"result":{}}`, id: "null", idRaw: "null", result: "{}", wantErr: ErrBadID},
		{name: "missing id on result", in: `{"jsonrpc":"2.0","result":{}}`, result: "{}", wantErr: ErrBadID},
		{name: "object id", in: `{"jsonrpc":"2.0","id":{},"method":"x"}`, method: "x", wantErr: ErrBadID},
		{name: "bool id", in: `{"jsonrpc":"2.0","id":true,"result":1}`, result: "1", wantErr: ErrBadID},
		{name: "method number", in: `{"jsonrpc":"2.0","id":1,"method":5}`, id: "1", idRaw: "1", wantErr: ErrBadMethod},
		{name: "method null", in: `{"jsonrpc":"2.0","method":null}`, wantErr: ErrBadMethod},
		{name: "params string", in: `{"jsonrpc":"2.0","method":"x","params":"a"}`, method: "x", params: `"a"`, wantErr: ErrBadParams},
		{name: "params null", in: `{"jsonrpc":"2.0","method":"x","params":null}`, method: "x", params: `null`, wantErr: ErrBadParams},
		{name: "error not object", in: `{"jsonrpc":"2.0","id":1,"error":"bad"}`, id: "1", idRaw: "1", wantErr: ErrBadErrorObject},
		{name: "error code float", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}`, id: "1", idRaw: "1", wantErr: ErrBadErrorObject},
		{name: "error no message", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1}}`, id: "1", idRaw: "1", errCode: 1, wantErr: ErrBadErrorObject},
		{name: "case sensitive keys", in: `{"jsonrpc":"2.0","ID":1,"Method":"x"}`, wantErr: ErrShape},
		{name: "empty batch", in: `[]`, wantErr: ErrEmptyBatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.in)
			m := Decode(in)
			if string(m.Raw) != tt.in {
				t.Errorf("Raw = %q, want %q", m.Raw, tt.in)
			}
			wantKind := tt.kind
			if tt.wantErr != nil {
				wantKind = KindInvalid
				if !errors.Is(m.Err, tt.wantErr) {
					t.Errorf("Err = %v, want %v", m.Err, tt.wantErr)
				}
			} else if m.Err != nil {
				t.Errorf("Err = %v, want nil", m.Err)
			}
			if m.Kind != wantKind {
				t.Errorf("Kind = %v, want %v", m.Kind, wantKind)
			}
			if m.ID.String() != tt.id {
				t.Errorf("ID.String() = %q, want %q", m.ID.String(), tt.id)
			}
			if string(m.ID.Raw()) != tt.idRaw {
				t.Errorf("ID.Raw() = %q, want %q", m.ID.Raw(), tt.idRaw)
			}
			if m.Method != tt.method {
				t.Errorf("Method = %q, want %q", m.Method, tt.method)
			}
			if string(m.Params) != tt.params {
				t.Errorf("Params = %q, want %q", m.Params, tt.params)
			}
			if string(m.Result) != tt.result {
				t.Errorf("Result = %q, want %q", m.Result, tt.result)
			}
			if tt.errCode != 0 && (m.Error == nil || m.Error.Code != tt.errCode) {
				t.Errorf("Error = %+v, want code %d", m.Error, tt.errCode)
			}
			if got, want := m.IsResponse(), wantKind == KindResult || wantKind == KindError; got != want {
				t.Errorf("IsResponse() = %v, want %v", got, want)
			}
		})
	}
}

func TestDecodeRawAliasesInput(t *testing.T) {
	in := []byte(`{"jsonrpc":"2.0","method":"x"}`)
	m := Decode(in)
	if &m.Raw[0] != &in[0] {
		t.Error("Raw is a copy, want the input slice")
	}
}

func TestDecodeBatch(t *testing.T) {
	in := `[{"jsonrpc":"2.0","id":1,"method":"a"}, {"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"s","result":{}}, 5, [1]]`
	m := Decode([]byte(in))
	if m.Kind != KindBatch || m.Err != nil {
		t.Fatalf("Decode(batch) = %v, %v; want batch, nil", m.Kind, m.Err)
	}
	type elem struct {
		Kind Kind
		Raw  string
		ID   string
	}
	var got []elem
	for _, e := range m.Batch {
		got = append(got, elem{e.Kind, string(e.Raw), e.ID.String()})
	}
	want := []elem{
		{KindRequest, `{"jsonrpc":"2.0","id":1,"method":"a"}`, "1"},
		{KindNotification, `{"jsonrpc":"2.0","method":"n"}`, ""},
		{KindResult, `{"jsonrpc":"2.0","id":"s","result":{}}`, `"s"`},
		{KindInvalid, `5`, ""},
		{KindInvalid, `[1]`, ""},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("batch elements mismatch (-want +got):\n%s", d)
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{KindInvalid: "invalid", KindRequest: "request", KindNotification: "notification", KindResult: "result", KindError: "error", KindBatch: "batch", Kind(42): "kind(42)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}

func TestID(t *testing.T) {
	tests := []struct {
		name              string
		id                ID
		raw, str          string
		zero, null, isStr bool
	}{
		{name: "zero", id: ID{}, raw: "", str: "", zero: true},
		{name: "int", id: IntID(-3), raw: "-3", str: "-3"},
		{name: "string", id: StringID("a<b\"c"), raw: `"a<b\"c"`, str: `"a<b\"c"`, isStr: true},
		{name: "null", id: NullID(), raw: "null", str: "null", null: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(tt.id.Raw()); got != tt.raw {
				t.Errorf("Raw() = %q, want %q", got, tt.raw)
			}
			if got := tt.id.String(); got != tt.str {
				t.Errorf("String() = %q, want %q", got, tt.str)
			}
			if tt.id.IsZero() != tt.zero || tt.id.IsNull() != tt.null || tt.id.IsString() != tt.isStr {
				t.Errorf("IsZero, IsNull, IsString = %v, %v, %v; want %v, %v, %v",
					tt.id.IsZero(), tt.id.IsNull(), tt.id.IsString(), tt.zero, tt.null, tt.isStr)
			}
		})
	}
}

func TestIDEqual(t *testing.T) {
	parse := func(s string) ID {
		t.Helper()
		id, err := ParseID([]byte(s))
		if err != nil {
			t.Fatalf("ParseID(%s): %v", s, err)
		}
		return id
	}
	tests := []struct {
		a, b ID
		want bool
	}{
		{IntID(1), IntID(1), true},
		{IntID(1), StringID("1"), false},
		{parse(`1`), IntID(1), true},
		{parse(`"\u0031"`), StringID("1"), true},
		{parse(`1.0`), IntID(1), false},
		{ID{}, ID{}, true},
		{ID{}, NullID(), false},
	}
	for _, tt := range tests {
		if got := tt.a.Equal(tt.b); got != tt.want {
			t.Errorf("%s.Equal(%s) = %v, want %v", tt.a.Raw(), tt.b.Raw(), got, tt.want)
		}
	}
}

func TestIDJSON(t *testing.T) {
	var v struct {
		ID ID `json:"id"`
	}
	if err := json.Unmarshal([]byte(`{"id":"x\u0041"}`), &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), `{"id":"x\u0041"}`; got != want {
		t.Errorf("round trip = %s, want %s", got, want)
	}
	for _, bad := range []string{`{"id":true}`, `{"id":[1]}`, `{"id":{}}`} {
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("Unmarshal(%s) succeeded, want error", bad)
		}
	}
}
