package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// A Saved is a case as a replay file holds it: the case, the finding it
// reproduces and the revision it was found at.
type Saved struct {
	Case    Case
	Rule    string
	Message string
	Era     string
	Version string
	// Transport is where it was found ("stdio", "http").
	Transport string
	Seed      uint64
}

const replayHeader = "mcpward fuzz replay: run it with mcpward fuzz --replay FILE and the server (-- <command…>, --url or --fixture)"

// maxReplayFrames bounds what a replay file may hold.
const maxReplayFrames = 64

// Encode writes s as a txtar archive: the metadata in the comment, one
// file per frame (its exact bytes and a newline).
func Encode(s Saved) ([]byte, error) {
	var c strings.Builder
	c.WriteString(replayHeader + "\n")
	line := func(k, v string) {
		if v != "" {
			c.WriteString(k + ": " + oneLine(v) + "\n")
		}
	}
	line("rule", s.Rule)
	line("finding", s.Message)
	line("case", s.Case.Name)
	line("note", s.Case.Note)
	line("tool", s.Case.Tool)
	line("era", s.Era)
	line("version", s.Version)
	line("transport", s.Transport)
	line("seed", strconv.FormatUint(s.Seed, 10))
	a := &archive{}
	for i, f := range s.Case.Frames {
		if bytes.ContainsAny(f.Bytes, "\n") {
			return nil, fmt.Errorf("frame %d holds a newline: it cannot be one line", i+1)
		}
		var attrs []string
		attrs = append(attrs, "answer="+string(f.Answer))
		if len(f.WantCodes) > 0 {
			attrs = append(attrs, "codes="+strings.ReplaceAll(codeWords(f.WantCodes), " or ", ","))
		}
		if f.Invalid {
			attrs = append(attrs, "invalid")
		}
		c.WriteString(fmt.Sprintf("frame %d: %s\n", i+1, strings.Join(attrs, " ")))
		for _, k := range sortedKeys(f.Header) {
			for _, v := range f.Header[k] {
				c.WriteString(fmt.Sprintf("frame %d header: %s: %s\n", i+1, k, oneLine(v)))
			}
		}
		a.Files = append(a.Files, file{Name: fmt.Sprintf("frame%d", i+1), Data: append(append([]byte(nil), f.Bytes...), '\n')})
	}
	a.Comment = []byte(c.String())
	out := a.format()
	// A frame that looks like a file marker would end up as two.
	if back, err := Decode(out); err != nil || len(back.Case.Frames) != len(s.Case.Frames) {
		return nil, errors.New("a frame looks like a txtar file marker: it cannot be saved")
	}
	return out, nil
}

// Decode reads a replay file written by Encode (or by hand). It never
// panics on bad input; an error says what is wrong.
func Decode(data []byte) (Saved, error) {
	a := parseArchive(data)
	var s Saved
	if !bytes.HasPrefix(bytes.TrimLeft(a.Comment, " \t\r\n"), []byte("mcpward fuzz replay")) {
		return s, errors.New("not an mcpward fuzz replay file (its first line must start with \"mcpward fuzz replay\")")
	}
	if len(a.Files) == 0 {
		return s, errors.New("the replay file holds no frame (-- frame1 -- sections)")
	}
	if len(a.Files) > maxReplayFrames {
		return s, fmt.Errorf("the replay file holds %d frames; at most %d", len(a.Files), maxReplayFrames)
	}
	attrs := map[int]string{}
	headers := map[int]Header{}
	for _, ln := range strings.Split(string(a.Comment), "\n")[1:] {
		ln = strings.TrimSpace(ln)
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		k, v, ok := strings.Cut(ln, ":")
		if !ok {
			return s, fmt.Errorf("replay file: line %q is not KEY: VALUE", clip([]byte(ln), 60))
		}
		v = strings.TrimSpace(v)
		switch k {
		case "rule":
			s.Rule = v
		case "finding":
			s.Message = v
		case "case":
			s.Case.Name = v
		case "note":
			s.Case.Note = v
		case "tool":
			s.Case.Tool = v
		case "era":
			if v != "modern" && v != "legacy" {
				return s, fmt.Errorf("replay file: era %q: want modern or legacy", v)
			}
			s.Era = v
		case "version":
			s.Version = v
		case "transport":
			s.Transport = v
		case "seed":
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return s, fmt.Errorf("replay file: seed %q is not a number", v)
			}
			s.Seed = n
		default:
			var n int
			rest, isHeader := strings.CutSuffix(k, " header")
			if _, err := fmt.Sscanf(rest, "frame %d", &n); err != nil || n < 1 || n > len(a.Files) || fmt.Sprintf("frame %d", n) != rest {
				return s, fmt.Errorf("replay file: unknown key %q", clip([]byte(k), 40))
			}
			if isHeader {
				hk, hv, ok := strings.Cut(v, ":")
				if !ok || strings.TrimSpace(hk) == "" {
					return s, fmt.Errorf("replay file: %s: want NAME: VALUE", k)
				}
				if headers[n] == nil {
					headers[n] = Header{}
				}
				headers[n].Add(strings.TrimSpace(hk), strings.TrimSpace(hv))
				continue
			}
			attrs[n] = v
		}
	}
	for i, f := range a.Files {
		if f.Name != fmt.Sprintf("frame%d", i+1) {
			return s, fmt.Errorf("replay file: section %d is named %q; want frame%d", i+1, clip([]byte(f.Name), 40), i+1)
		}
		fr := Frame{Bytes: bytes.TrimSuffix(f.Data, []byte("\n")), Answer: AnswerMaybe, Header: headers[i+1]}
		for _, at := range strings.Fields(attrs[i+1]) {
			k, v, _ := strings.Cut(at, "=")
			switch k {
			case "answer":
				switch Answer(v) {
				case AnswerNone, AnswerMaybe, AnswerID, AnswerBatch:
					fr.Answer = Answer(v)
				default:
					return s, fmt.Errorf("replay file: frame %d: answer %q: want none, maybe, id or batch", i+1, clip([]byte(v), 20))
				}
			case "codes":
				for _, cs := range strings.Split(v, ",") {
					code, err := strconv.Atoi(cs)
					if err != nil {
						return s, fmt.Errorf("replay file: frame %d: code %q is not a number", i+1, clip([]byte(cs), 20))
					}
					fr.WantCodes = append(fr.WantCodes, code)
				}
			case "invalid":
				fr.Invalid = true
			default:
				return s, fmt.Errorf("replay file: frame %d: unknown attribute %q", i+1, clip([]byte(k), 20))
			}
		}
		if fr.Answer == AnswerID || fr.Answer == AnswerBatch {
			id, ok := frameID(fr.Bytes)
			if !ok {
				return s, fmt.Errorf("replay file: frame %d is answer=%s but has no string or number id", i+1, fr.Answer)
			}
			fr.ID = id
		}
		s.Case.Frames = append(s.Case.Frames, fr)
	}
	if s.Era == "" {
		s.Era = "legacy"
	}
	return s, nil
}

// frameID returns the id member of a request (the first request of a
// batch) as JSON, when it is a string or a number.
func frameID(b []byte) (string, bool) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var arr []json.RawMessage
		if json.Unmarshal(b, &arr) != nil || len(arr) == 0 {
			return "", false
		}
		b = arr[0]
	}
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(b, &m) != nil || len(m.ID) == 0 {
		return "", false
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return string(m.ID), true
	}
	return "", false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func sortedKeys(h Header) []string { return slices.Sorted(maps.Keys(h)) }

// archive is a txtar archive: a comment, then files, each introduced by a
// "-- NAME --" line. It is parsed here rather than with go-internal's
// txtar, whose Parse panics on a marker line "-- --" (found by
// FuzzDecode): a replay file comes from anywhere.
type archive struct {
	Comment []byte
	Files   []file
}

type file struct {
	Name string
	Data []byte
}

func (a *archive) format() []byte {
	var b bytes.Buffer
	b.Write(fixNL(a.Comment))
	for _, f := range a.Files {
		fmt.Fprintf(&b, "-- %s --\n", f.Name)
		b.Write(fixNL(f.Data))
	}
	return b.Bytes()
}

func fixNL(b []byte) []byte {
	if len(b) == 0 || b[len(b)-1] == '\n' {
		return b
	}
	return append(append([]byte(nil), b...), '\n')
}

// marker returns the name of a "-- NAME --" line (without its newline).
func marker(line []byte) (string, bool) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) < len("-- x --") || !bytes.HasPrefix(line, []byte("-- ")) || !bytes.HasSuffix(line, []byte(" --")) {
		return "", false
	}
	name := strings.TrimSpace(string(line[3 : len(line)-3]))
	return name, name != ""
}

func parseArchive(data []byte) *archive {
	a := &archive{}
	cur := &a.Comment
	for len(data) > 0 {
		line, rest, found := bytes.Cut(data, []byte("\n"))
		if name, ok := marker(line); ok {
			a.Files = append(a.Files, file{Name: name})
			cur = &a.Files[len(a.Files)-1].Data
		} else {
			*cur = append(*cur, line...)
			if found {
				*cur = append(*cur, '\n')
			}
		}
		data = rest
	}
	return a
}
