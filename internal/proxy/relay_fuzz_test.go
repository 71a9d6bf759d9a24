package proxy

import (
	"bytes"
	"io"
	"slices"
	"sync"
	"testing"

	"github.com/mcpward/mcpward/internal/session"
)

// cutReader hands out its chunks one Read at a time.
type cutReader struct{ chunks [][]byte }

func (r *cutReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.chunks[0])
	if n == len(r.chunks[0]) {
		r.chunks = r.chunks[1:]
	} else {
		r.chunks[0] = r.chunks[0][n:]
	}
	return n, nil
}

// frameCopies keeps a copy of every recorded frame, in order.
type frameCopies struct {
	mu     sync.Mutex
	frames []session.Record
}

func (c *frameCopies) Record(recs ...session.Record) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range recs {
		r.Frame = slices.Clone(r.Frame)
		c.frames = append(c.frames, r)
	}
}

func (c *frameCopies) Close() error { return nil }

// FuzzRelayLines: whatever a client or server writes and however its
// writes are cut into reads, the relay forwards the bytes unchanged and
// records each "\n"-terminated line (and a last unterminated one) as one
// frame: the frames put back together are the stream, and a frame over
// the cap keeps its first MaxFrame bytes and its whole size.
func FuzzRelayLines(f *testing.F) {
	for _, s := range []string{
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n", "a\nb\n\nc", "\n\n\n", "no newline at all",
		"{\"x\":1}\r\n{\"y\":\"\xff\"}\n", string(bytes.Repeat([]byte("long line "), 200)) + "\nshort\n",
	} {
		f.Add([]byte(s), []byte{0, 7, 2, 200}, uint16(0))
		f.Add([]byte(s), []byte{}, uint16(16))
	}
	f.Fuzz(func(t *testing.T, stream, cuts []byte, maxFrame uint16) {
		if len(stream) > 64<<10 {
			t.Skip("long streams cut into 1-byte reads only cost time")
		}
		var dst bytes.Buffer
		rec := &frameCopies{}
		res := Relay(&dst, &cutReader{chunks: splitAt(stream, cuts)},
			&RelayOptions{Dir: session.ClientToServer, Transport: session.Stdio, Recorder: rec, MaxFrame: int(maxFrame)})
		if res.ReadErr != nil || res.WriteErr != nil {
			t.Fatalf("relay errors: %v, %v", res.ReadErr, res.WriteErr)
		}
		if !bytes.Equal(dst.Bytes(), stream) || res.Bytes != int64(len(stream)) {
			t.Fatalf("relayed %d of %d bytes, or changed them", res.Bytes, len(stream))
		}
		lines := bytes.SplitAfter(stream, []byte("\n"))
		if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		if len(rec.frames) != len(lines) || res.Frames != int64(len(lines)) {
			t.Fatalf("%d frames recorded (result says %d), %d lines in the stream", len(rec.frames), res.Frames, len(lines))
		}
		for i, fr := range rec.frames {
			line, terminated := bytes.CutSuffix(lines[i], []byte("\n"))
			if fr.NoEOL == terminated {
				t.Fatalf("frame %d: NoEOL %v for %q", i, fr.NoEOL, lines[i])
			}
			if fr.Size != int64(len(line)) {
				t.Fatalf("frame %d: size %d, line %d bytes", i, fr.Size, len(line))
			}
			if !bytes.HasPrefix(line, fr.Frame) || (len(fr.Frame) < len(line) && !fr.Truncated) {
				t.Fatalf("frame %d: recorded %q of line %q", i, fr.Frame, line)
			}
		}
	})
}
