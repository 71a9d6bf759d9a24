package jsonx

import (
	"encoding/json"
	"testing"
)

func TestMarshal(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"html stays", map[string]string{"a": "<b>&</b>"}, `{"a":"<b>&</b>"}`},
		{"string", "x<y", `"x<y"`},
		{"control escaped", "a\nb\u2028", `"a\nb\u2028"`},
		{"keys sorted", map[string]int{"b": 1, "a": 2}, `{"a":2,"b":1}`},
		{"raw message kept", json.RawMessage(`{"z":1,"a":"<"}`), `{"z":1,"a":"<"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Marshal(%#v) = %s, want %s", tt.v, got, tt.want)
			}
		})
	}
}

func TestMarshalIndent(t *testing.T) {
	got, err := MarshalIndent(map[string]any{"a": []int{1}, "b": "<"}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": [\n    1\n  ],\n  \"b\": \"<\"\n}"
	if string(got) != want {
		t.Errorf("MarshalIndent = %q, want %q", got, want)
	}
}

// TestSameAsEncodingJSON: apart from the HTML characters, the bytes are
// encoding/json's.
func TestSameAsEncodingJSON(t *testing.T) {
	v := map[string]any{"n": 1.5, "s": "é\t", "l": []any{nil, true}, "o": map[string]any{}}
	want, _ := json.Marshal(v)
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Marshal = %s, json.Marshal = %s", got, want)
	}
	wantI, _ := json.MarshalIndent(v, ">", "\t")
	gotI, err := MarshalIndent(v, ">", "\t")
	if err != nil {
		t.Fatal(err)
	}
	if string(gotI) != string(wantI) {
		t.Errorf("MarshalIndent = %s, json.MarshalIndent = %s", gotI, wantI)
	}
}

func TestMarshalError(t *testing.T) {
	if _, err := Marshal(func() {}); err == nil {
		t.Error("Marshal(func) succeeded, want an error")
	}
}
