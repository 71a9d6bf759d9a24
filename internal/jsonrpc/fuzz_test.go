package jsonrpc

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{}}`,
		`{"jsonrpc":"2.0","id":"a","result":null}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"m","data":[1]}}`,
		`{"jsonrpc":"2.0","method":"n"}`,
		`[{"jsonrpc":"2.0","method":"n"},[],5]`,
		`{"jsonrpc":"2.0","id":1e400,"method":"x"}`,
		`{"jsonrpc":"2.0","id":"\ud800","method":"x"}`,
		`{"jsonrpc":"2.0","id":-0,"result":{},"error":{}}`,
		"\xff\xfe", "", "[", "null",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		m := Decode(in)
		if !bytes.Equal(m.Raw, orig) {
			t.Fatalf("Raw = %q, want the input", m.Raw)
		}
		if (m.Kind == KindInvalid) != (m.Err != nil) {
			t.Fatalf("Kind %v with Err %v", m.Kind, m.Err)
		}
		switch m.Kind {
		case KindRequest, KindResult:
			if m.ID.IsZero() || m.ID.IsNull() {
				t.Fatalf("%v without a usable id", m.Kind)
			}
		case KindError:
			if m.ID.IsZero() || m.Error == nil {
				t.Fatalf("error response without id or error object")
			}
		case KindBatch:
			if len(m.Batch) == 0 {
				t.Fatal("empty batch accepted")
			}
		}
		if !m.ID.IsZero() {
			id, err := ParseID(m.ID.Raw())
			if err != nil || !id.Equal(m.ID) {
				t.Fatalf("ParseID(%s) = %v, %v; want equal", m.ID.Raw(), id, err)
			}
		}
		// Decoding is deterministic and a valid message re-decodes the same.
		m2 := Decode(orig)
		if m2.Kind != m.Kind || !m2.ID.Equal(m.ID) || m2.Method != m.Method {
			t.Fatalf("second Decode differs: %v %v %q vs %v %v %q", m.Kind, m.ID, m.Method, m2.Kind, m2.ID, m2.Method)
		}
	})
}

// referenceLines is the obvious, slow definition of LineReader's output.
func referenceLines(in []byte) [][]byte {
	if len(in) == 0 {
		return nil
	}
	parts := bytes.Split(in, []byte("\n"))
	if len(parts[len(parts)-1]) == 0 {
		parts = parts[:len(parts)-1]
	}
	for i, p := range parts {
		parts[i] = bytes.TrimSuffix(p, []byte("\r"))
	}
	return parts
}

func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"", "\n", "a\r\nb", "a\r", "\r\r\n", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\nb\n"} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, in []byte, oneByte bool) {
		var src io.Reader = bytes.NewReader(in)
		if oneByte {
			src = iotest.OneByteReader(src)
		}
		r := newLineReaderSize(src, 16)
		var got [][]byte
		for {
			l, err := r.ReadLine()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, l)
		}
		if d := cmp.Diff(referenceLines(in), got); d != "" {
			t.Fatalf("lines mismatch (-want +got):\n%s", d)
		}
	})
}

func FuzzSSE(f *testing.F) {
	for _, s := range []string{
		"data: x\n\n", "id: 1\ndata:\n\n", "event: endpoint\r\ndata: /m\r\n\r\n",
		": c\r\rdata\r\n\n", "\xef\xbb\xbfretry: 10\n\n", "\xef\xbbdata: x\n\n", "id: \x00\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		evs, err := ParseSSE(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if bytes.ContainsAny(ev.Data, "\r") || bytes.ContainsAny([]byte(ev.ID+ev.Event), "\r\n") {
				t.Fatalf("line terminator inside a field: %+v", ev)
			}
			if !ev.HasData && len(ev.Data) > 0 {
				t.Fatalf("data without HasData: %+v", ev)
			}
		}
		// Reading one byte at a time gives the same events.
		r := NewSSEReader(iotest.OneByteReader(bytes.NewReader(in)))
		var slow []Event
		for {
			ev, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			slow = append(slow, ev)
		}
		if d := cmp.Diff(evs, slow); d != "" {
			t.Fatalf("one-byte reads mismatch (-whole +slow):\n%s", d)
		}
	})
}
