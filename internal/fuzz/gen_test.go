package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

var (
	legacyStdio = Target{Era: "legacy", Version: "2025-11-25", Transport: "stdio"}
	modernStdio = Target{Era: "modern", Version: "2026-07-28", Transport: "stdio"}
	modernHTTP  = Target{Era: "modern", Version: "2026-07-28", Transport: "http"}
	legacyHTTP  = Target{Era: "legacy", Version: "2025-11-25", Transport: "http"}
)

func names(cs []Case) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

func TestGenerateDeterministic(t *testing.T) {
	for _, tg := range []Target{legacyStdio, modernStdio, modernHTTP} {
		a, b := Generate(tg, 7, 120), Generate(tg, 7, 120)
		if len(a) != 120 || len(b) != 120 {
			t.Fatalf("%v: %d and %d cases, want 120", tg, len(a), len(b))
		}
		for i := range a {
			for j := range a[i].Frames {
				if !bytes.Equal(a[i].Frames[j].Bytes, b[i].Frames[j].Bytes) {
					t.Fatalf("%v: case %d (%s) differs between two runs with seed 7", tg, i, a[i].Name)
				}
			}
		}
		c := Generate(tg, 8, 120)
		same := true
		for i := range a {
			if !bytes.Equal(a[i].Frames[0].Bytes, c[i].Frames[0].Bytes) {
				same = false
				if !strings.HasPrefix(a[i].Name, "random/") {
					t.Errorf("%v: fixed case %s changed with the seed", tg, a[i].Name)
				}
			}
		}
		if same {
			t.Errorf("%v: seeds 7 and 8 gave the same random cases", tg)
		}
	}
}

func TestGenerateSmallBudgetCoversGroups(t *testing.T) {
	got := names(Generate(legacyStdio, 1, 9))
	want := []string{"json/truncated", "rpc/missing-jsonrpc", "id/string-empty", "method/unknown", "notification/with-id",
		"params/string", "meta/progress-token-object", "batch/two-pings", "line/1mib"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("first 9 cases:\n got %v\nwant %v", got, want)
	}
}

func TestGenerateFrames(t *testing.T) {
	for _, tg := range []Target{legacyStdio, modernStdio, modernHTTP} {
		for _, c := range Generate(tg, 3, 0) {
			if c.Transport != "" && c.Transport != tg.Transport {
				t.Errorf("%v: case %s is for %s", tg, c.Name, c.Transport)
			}
			for _, f := range c.Frames {
				if bytes.IndexByte(f.Bytes, '\n') >= 0 {
					t.Errorf("%v: %s: a frame holds a newline", tg, c.Name)
				}
				if f.Answer == AnswerID {
					if f.ID == "" || !json.Valid([]byte(f.ID)) {
						t.Errorf("%v: %s: answer=id with id %q", tg, c.Name, f.ID)
					}
					var m struct {
						ID     json.RawMessage `json:"id"`
						Params json.RawMessage `json:"params"`
					}
					if err := json.Unmarshal(f.Bytes, &m); err != nil {
						t.Errorf("%v: %s: a request that must be answered is not JSON: %v", tg, c.Name, err)
						continue
					}
					var p struct {
						Meta map[string]json.RawMessage `json:"_meta"`
					}
					_ = json.Unmarshal(m.Params, &p)
					if !sameID(m.ID, []byte(f.ID)) {
						t.Errorf("%v: %s: frame id %s, expected %s", tg, c.Name, m.ID, f.ID)
					}
					_, hasVersion := p.Meta[metaVersion]
					wantEnvelope := tg.Modern() && !strings.HasPrefix(c.Name, "meta/") && !strings.HasPrefix(c.Name, "params/meta") && c.Name != "params/array"
					if wantEnvelope && !hasVersion {
						t.Errorf("%v: %s: a modern request without the _meta envelope: %s", tg, c.Name, clip(f.Bytes, 200))
					}
					if !tg.Modern() && hasVersion {
						t.Errorf("%v: %s: a legacy request with the modern envelope", tg, c.Name)
					}
				}
			}
		}
	}
}

func TestGenerateHTTPOnly(t *testing.T) {
	has := func(cs []Case, name string) bool {
		for _, c := range cs {
			if c.Name == name {
				return true
			}
		}
		return false
	}
	if has(Generate(modernStdio, 1, 0), "http/method-header-mismatch") {
		t.Error("a stdio plan holds an HTTP header case")
	}
	if !has(Generate(modernHTTP, 1, 0), "http/method-header-mismatch") {
		t.Error("a modern HTTP plan lacks the header/body mismatch case")
	}
	if has(Generate(legacyStdio, 1, 0), "meta/missing") {
		t.Error("a legacy plan holds a modern-envelope case")
	}
}

func TestToolCases(t *testing.T) {
	tg := legacyStdio
	tg.Tools = []Tool{{Name: "search", InputSchema: []byte(`{"type":"object","additionalProperties":false,
		"properties":{"q":{"type":"string","maxLength":5},"n":{"type":"integer","minimum":1,"maximum":10},"mode":{"enum":["a","b"]},"text":{"type":"string"}},
		"required":["q","n"]}`)}}
	var got []string
	args := map[string]map[string]any{}
	for _, c := range Base(tg)["tool"] {
		got = append(got, strings.TrimPrefix(c.Name, "tool/search/"))
		var m struct {
			Params struct {
				Arguments map[string]any `json:"arguments"`
			} `json:"params"`
		}
		_ = json.Unmarshal(c.Frames[0].Bytes, &m)
		args[c.Name] = m.Params.Arguments
		if c.Tool != "search" || c.Frames[0].Answer != AnswerID {
			t.Errorf("%s: tool %q answer %s", c.Name, c.Tool, c.Frames[0].Answer)
		}
		if inv := !strings.Contains(c.Name, "huge-string"); c.Frames[0].Invalid != inv {
			t.Errorf("%s: Invalid = %v, want %v", c.Name, c.Frames[0].Invalid, inv)
		}
	}
	want := []string{"not-object", "missing-required/q", "missing-required/n", "not-in-enum/mode", "wrong-type/n", "below-minimum/n", "above-maximum/n",
		"wrong-type/q", "too-long/q", "wrong-type/text", "unknown-property", "huge-string/text"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tool cases:\n got %v\nwant %v", got, want)
	}
	if a := args["tool/search/missing-required/q"]; a["q"] != nil || a["n"] == nil {
		t.Errorf("missing-required/q arguments = %v", a)
	}
	if a := args["tool/search/below-minimum/n"]; a["n"] != float64(0) {
		t.Errorf("below-minimum/n arguments = %v", a)
	}
	if a := args["tool/search/wrong-type/n"]; fmt.Sprintf("%T", a["n"]) != "string" {
		t.Errorf("wrong-type/n arguments = %v", a)
	}
}

func TestMutantsNeverSplitLines(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		for _, c := range Generate(legacyStdio, seed, 150)[100:] {
			if bytes.IndexByte(c.Frames[0].Bytes, '\n') >= 0 {
				t.Fatalf("seed %d: %s holds a newline", seed, c.Name)
			}
		}
	}
}
