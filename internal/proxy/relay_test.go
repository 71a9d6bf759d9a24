package proxy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/session"
)

func TestRelayLosslessRandomChunks(t *testing.T) {
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 1))
		data := randomStream(r, 200, 50_000)
		rec := &memRecorder{}
		var out bytes.Buffer
		res := Relay(&out, &chunkReader{r: r, data: data}, &RelayOptions{Dir: session.ClientToServer, Transport: session.Stdio, Recorder: rec})
		if res.ReadErr != nil || res.WriteErr != nil {
			t.Fatalf("seed %d: Relay() = %+v", seed, res)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("seed %d: relayed bytes differ from input", seed)
		}
		var joined bytes.Buffer
		for _, fr := range rec.records() {
			joined.Write(fr.Bytes())
			if fr.Truncated || fr.Size != int64(len(fr.Frame)) {
				t.Fatalf("seed %d: frame size %d, len %d, truncated %v", seed, fr.Size, len(fr.Frame), fr.Truncated)
			}
		}
		if !bytes.Equal(joined.Bytes(), data) {
			t.Fatalf("seed %d: recorded frames do not rebuild the stream", seed)
		}
		if want := int64(bytes.Count(data, []byte("\n"))); res.Frames < want || res.Frames > want+1 {
			t.Errorf("seed %d: Frames = %d, want %d or %d", seed, res.Frames, want, want+1)
		}
	}
}

func TestRelayOverPipe(t *testing.T) {
	pr, pw := io.Pipe()
	outR, outW := io.Pipe()
	rec := &memRecorder{}
	done := make(chan RelayResult)
	go func() {
		done <- Relay(outW, pr, &RelayOptions{Dir: session.ServerToClient, Recorder: rec})
		outW.Close()
	}()
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(outR); got <- b }()
	for _, part := range []string{`{"id":1`, `,"x":2}` + "\n" + `{"id":2}` + "\n\n", "tail"} {
		if _, err := pw.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	pw.Close()
	<-done
	if b := <-got; string(b) != "{\"id\":1,\"x\":2}\n{\"id\":2}\n\ntail" {
		t.Errorf("relayed %q", b)
	}
	var frames []string
	for _, r := range rec.records() {
		frames = append(frames, string(r.Frame))
	}
	want := []string{`{"id":1,"x":2}`, `{"id":2}`, ``, `tail`}
	if len(frames) != len(want) {
		t.Fatalf("frames = %q, want %q", frames, want)
	}
	for i := range want {
		if frames[i] != want[i] {
			t.Errorf("frame %d = %q, want %q", i, frames[i], want[i])
		}
	}
	if last := rec.records()[3]; !last.NoEOL {
		t.Error("last frame without newline is not marked NoEOL")
	}
}

func TestRelayTruncatesRecordedCopyOnly(t *testing.T) {
	line := append(bytes.Repeat([]byte("a"), 10_000), '\n')
	data := bytes.Repeat(line, 3)
	rec := &memRecorder{}
	var out bytes.Buffer
	Relay(&out, &chunkReader{r: rand.New(rand.NewPCG(1, 2)), data: data}, &RelayOptions{Recorder: rec, MaxFrame: 1000})
	if !bytes.Equal(out.Bytes(), data) {
		t.Fatal("relayed bytes were truncated")
	}
	for _, r := range rec.records() {
		if !r.Truncated || len(r.Frame) != 1000 || r.Size != 10_000 {
			t.Errorf("record: truncated=%v len=%d size=%d, want true 1000 10000", r.Truncated, len(r.Frame), r.Size)
		}
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("broken pipe")
	}
	f.n--
	return len(p), nil
}

func TestRelayKeepReadingAfterWriteError(t *testing.T) {
	data := []byte("a\nb\nc\n")
	rec := &memRecorder{}
	called := 0
	res := Relay(&failWriter{}, &chunkReader{r: rand.New(rand.NewPCG(3, 3)), data: data}, &RelayOptions{
		Recorder: rec, KeepReading: true, OnWriteError: func(error) { called++ },
	})
	if res.WriteErr == nil || called != 1 {
		t.Errorf("WriteErr = %v, OnWriteError called %d times; want an error, once", res.WriteErr, called)
	}
	if res.Bytes != int64(len(data)) || len(rec.records()) != 3 {
		t.Errorf("read %d bytes and recorded %d frames, want %d and 3", res.Bytes, len(rec.records()), len(data))
	}
}

func BenchmarkRelaySmallFrames(b *testing.B) {
	frame := append(bytes.Repeat([]byte("x"), 99), '\n')
	data := bytes.Repeat(frame, 1000)
	rec := NewLog(io.Discard, nil)
	defer rec.Close()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		Relay(io.Discard, bytes.NewReader(data), &RelayOptions{Recorder: rec})
	}
}

func BenchmarkRelayLog1MB(b *testing.B) {
	frame := append([]byte(`{"a":"`+string(bytes.Repeat([]byte("x"), 1<<20))+`"}`), '\n')
	data := bytes.Repeat(frame, 16)
	f, err := os.Create(filepath.Join(b.TempDir(), "log.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	rec := NewLog(f, nil)
	defer rec.Close()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Relay(io.Discard, &chunkReader{r: rand.New(rand.NewPCG(1, 1)), data: data}, &RelayOptions{Recorder: rec})
	}
}

// bigChunkReader hands over up to 70,000 bytes per read, more than a pipe
// does, so that reads land at every offset of the relay's buffers.
type bigChunkReader struct {
	r    *rand.Rand
	data []byte
}

func (c *bigChunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.data), 1+c.r.IntN(70_000))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// Lines spanning many reads and several read buffers keep their bytes:
// the pieces stay in the buffers they were read into until the line is
// joined, and no later read may land on them. With a Log, a long line
// moves into a frame buffer and the reads that follow go into it, past
// the cap too.
//
// -short takes two of the four seeds: each relays ~16 MB six ways, and
// under -race every byte copied costs a shadow-memory update.
func TestRelayLongLinesAcrossBuffers(t *testing.T) {
	seeds := uint64(4)
	if testing.Short() {
		seeds = 2
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(seed, 9))
		var data []byte
		for i := range 40 {
			n := r.IntN(4)
			size := []int{10, 5_000, 1_500_000, 90_000}[n] + r.IntN(1000)
			line := bytes.Repeat([]byte{byte('a' + i%26)}, size)
			data = append(append(data, line...), '\n')
		}
		data = append(data, "tail"...)
		for _, maxFrame := range []int{0, 700_000, 70_000} {
			for _, viaLog := range []bool{false, true} {
				var recs []session.Record
				var out bytes.Buffer
				out.Grow(len(data)) // no regrowth copies (costly under -race)
				if viaLog {
					var logBuf bytes.Buffer
					lg := NewLog(&logBuf, &LogOptions{QueueBytes: 2 << 20})
					Relay(&out, &bigChunkReader{r: r, data: data}, &RelayOptions{Dir: session.ServerToClient, Recorder: lg, MaxFrame: maxFrame})
					if err := lg.Close(); err != nil {
						t.Fatal(err)
					}
					for _, rec := range readLog(t, &logBuf) {
						recs = append(recs, *rec)
					}
				} else {
					rec := &memRecorder{}
					Relay(&out, &bigChunkReader{r: r, data: data}, &RelayOptions{Recorder: rec, MaxFrame: maxFrame})
					recs = rec.records()
				}
				if !bytes.Equal(out.Bytes(), data) {
					t.Fatalf("seed %d log %v: relayed bytes differ", seed, viaLog)
				}
				lines := bytes.SplitAfter(data, []byte("\n"))
				if len(recs) != len(lines) {
					t.Fatalf("seed %d log %v: %d records, want %d", seed, viaLog, len(recs), len(lines))
				}
				for i, fr := range recs {
					want := bytes.TrimSuffix(lines[i], []byte("\n"))
					if fr.Size != int64(len(want)) {
						t.Fatalf("seed %d max %d log %v line %d: Size %d, want %d", seed, maxFrame, viaLog, i, fr.Size, len(want))
					}
					if maxFrame > 0 && len(want) > maxFrame {
						want = want[:maxFrame]
					}
					if !bytes.Equal(fr.Frame, want) || fr.Truncated != (fr.Size > int64(len(want))) {
						t.Fatalf("seed %d max %d log %v line %d: frame of %d bytes (truncated %v) differs from the line's %d", seed, maxFrame, viaLog, i, len(fr.Frame), fr.Truncated, len(want))
					}
					if fr.NoEOL != (i == len(lines)-1) {
						t.Fatalf("seed %d log %v line %d: NoEOL %v", seed, viaLog, i, fr.NoEOL)
					}
				}
			}
		}
	}
}

// pipeReader hands over 64 KiB per read, as a Linux pipe does.
type pipeReader struct{ data []byte }

func (p *pipeReader) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(b), len(p.data), 64<<10)
	copy(b, p.data[:n])
	p.data = p.data[n:]
	return n, nil
}

// BenchmarkRelayLogPipe is the logging relay on pipe-sized reads, with
// the log in a file: the in-process part of proxybench's shim+log.
func BenchmarkRelayLogPipe(b *testing.B) {
	for _, size := range []int{100, 10 << 10, 1 << 20, 8 << 20} {
		name := fmt.Sprintf("%dKB", size>>10)
		if size < 1<<10 {
			name = fmt.Sprintf("%dB", size)
		}
		b.Run(name, func(b *testing.B) {
			frame := append([]byte(`{"a":"`+strings.Repeat("x", size)+`"}`), '\n')
			data := bytes.Repeat(frame, max(1, (32<<20)/size))
			f, err := os.Create(filepath.Join(b.TempDir(), "log.jsonl"))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			rec := NewLog(f, nil)
			defer rec.Close()
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				Relay(io.Discard, &pipeReader{data: data}, &RelayOptions{Recorder: rec})
			}
		})
	}
}
