package fuzz

import (
	"bytes"
	"strings"
	"testing"
)

func TestReplayRoundTrip(t *testing.T) {
	for _, c := range Generate(modernHTTP, 5, 0) {
		s := Saved{Case: c, Rule: RuleCrash, Message: "after x\nthe server ended", Era: "modern", Version: "2026-07-28", Transport: "http", Seed: 5}
		data, err := Encode(s)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		back, err := Decode(data)
		if err != nil {
			t.Fatalf("%s: Decode: %v\n%s", c.Name, err, data)
		}
		if back.Rule != s.Rule || back.Era != "modern" || back.Version != s.Version || back.Seed != 5 || back.Case.Name != c.Name || back.Message != "after x the server ended" {
			t.Errorf("%s: metadata came back as %+v", c.Name, back)
		}
		if len(back.Case.Frames) != len(c.Frames) {
			t.Fatalf("%s: %d frames, want %d", c.Name, len(back.Case.Frames), len(c.Frames))
		}
		for i, f := range c.Frames {
			g := back.Case.Frames[i]
			if !bytes.Equal(g.Bytes, f.Bytes) || g.Answer != f.Answer || g.Invalid != f.Invalid || codeWords(g.WantCodes) != codeWords(f.WantCodes) {
				t.Errorf("%s frame %d: came back as %+v", c.Name, i, g)
			}
			if (f.Answer == AnswerID || f.Answer == AnswerBatch) && !sameID([]byte(g.ID), []byte(f.ID)) {
				t.Errorf("%s frame %d: id %s, want %s", c.Name, i, g.ID, f.ID)
			}
			if len(f.Header) > 0 && g.Header.Get("Mcp-Method") != f.Header.Get("Mcp-Method") {
				t.Errorf("%s frame %d: header %v, want %v", c.Name, i, g.Header, f.Header)
			}
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", "not an mcpward fuzz replay file"},
		{"mcpward fuzz replay\n", "holds no frame"},
		{"mcpward fuzz replay\nera: old\n-- frame1 --\nx\n", `era "old"`},
		{"mcpward fuzz replay\nbogus: 1\n-- frame1 --\nx\n", `unknown key "bogus"`},
		{"mcpward fuzz replay\nframe 2: answer=id\n-- frame1 --\nx\n", `unknown key "frame 2"`},
		{"mcpward fuzz replay\nframe 1: answer=id\n-- frame1 --\nx\n", "has no string or number id"},
		{"mcpward fuzz replay\nframe 1: codes=x\n-- frame1 --\nx\n", `code "x" is not a number`},
		{"mcpward fuzz replay\n-- other --\nx\n", `named "other"`},
	} {
		_, err := Decode([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decode(%q) = %v, want an error with %q", tt.in, err, tt.want)
		}
	}
}

func TestEncodeRefusesMarkerFrame(t *testing.T) {
	_, err := Encode(Saved{Case: Case{Frames: []Frame{{Bytes: []byte("-- frame9 --"), Answer: AnswerMaybe}}}})
	if err == nil {
		t.Error("a frame that is a txtar marker was saved")
	}
}

// FuzzDecode: the replay reader takes files from anywhere; it must never
// panic, and what it accepts must survive Encode and Decode again.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("mcpward fuzz replay\nrule: fuzz.crash\nframe 1: answer=id codes=-32602,-32600 invalid\nframe 1 header: Mcp-Method: x\n-- frame1 --\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"))
	f.Add([]byte("mcpward fuzz replay\nera: modern\nseed: 9\n-- frame1 --\n\xff\xfe\n-- frame2 --\n[]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode(data)
		if err != nil {
			return
		}
		out, err := Encode(s)
		if err != nil {
			return // a frame with a newline or a marker cannot be saved
		}
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("re-decode: %v\n%s", err, out)
		}
		if len(back.Case.Frames) != len(s.Case.Frames) {
			t.Fatalf("%d frames came back as %d", len(s.Case.Frames), len(back.Case.Frames))
		}
	})
}
