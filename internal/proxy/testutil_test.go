package proxy

import (
	"bytes"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/mcpward/mcpward/internal/session"
)

// memRecorder keeps records in memory, assigning seq like a Log.
type memRecorder struct {
	mu   sync.Mutex
	seq  uint64
	recs []session.Record
}

func (m *memRecorder) Record(recs ...session.Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range recs {
		m.seq++
		r.Seq = m.seq
		m.recs = append(m.recs, r)
	}
}

func (m *memRecorder) Close() error { return nil }

func (m *memRecorder) records() []session.Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]session.Record(nil), m.recs...)
}

// readLog reads a whole session log, failing on any problem.
func readLog(t *testing.T, r io.Reader) []*session.Record {
	t.Helper()
	rd := session.NewReader(r)
	var out []*session.Record
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	if len(rd.Problems()) > 0 {
		t.Fatalf("log problems: %v", rd.Problems())
	}
	return out
}

// streamOf concatenates the bytes of the records of one direction.
func streamOf(recs []*session.Record, dir session.Direction) []byte {
	var b bytes.Buffer
	for _, r := range recs {
		if r.Dir == dir {
			b.Write(r.Bytes())
		}
	}
	return b.Bytes()
}

// checkSeq fails unless seq is 1, 2, 3… in file order.
func checkSeq(t *testing.T, recs []*session.Record) {
	t.Helper()
	for i, r := range recs {
		if r.Seq != uint64(i+1) {
			t.Fatalf("record %d has seq %d, want %d", i, r.Seq, i+1)
		}
	}
}

// randomStream builds a byte stream of frames of every awkward kind: JSON,
// invalid UTF-8, CRLF endings, empty lines, big lines, and possibly no
// final newline.
func randomStream(r *rand.Rand, frames int, big int) []byte {
	var b bytes.Buffer
	for i := range frames {
		switch r.IntN(7) {
		case 0:
			b.WriteString(`{"jsonrpc":"2.0","id":` + string(rune('0'+i%10)) + `,"method":"tools/call","params":{"s":"<&>"}}`)
		case 1:
			n := r.IntN(300)
			for range n {
				c := byte(r.IntN(256))
				if c == '\n' {
					c = 'x'
				}
				b.WriteByte(c)
			}
		case 2:
			b.WriteString("{\"crlf\":true}\r")
		case 3:
			// empty line
		case 4:
			if big > 0 {
				b.WriteString(`{"big":"`)
				b.Write(bytes.Repeat([]byte("é"), r.IntN(big)/2))
				b.WriteString(`"}`)
			}
		case 5:
			b.WriteString("plain text line with \ttabs")
		case 6:
			b.WriteString(`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":"x","method":"b"}]`)
		}
		if i < frames-1 || r.IntN(2) == 0 {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// chunkReader returns data in reads of random sizes.
type chunkReader struct {
	r    *rand.Rand
	data []byte
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.data), 1+c.r.IntN(5000))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}
