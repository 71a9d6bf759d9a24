//go:build linux

package proxy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/mcpward/mcpward/internal/session"
)

// Issue 30: the splice/tee relay. Every test here runs on both paths; the
// copy path must pass the same table.

// An endKind makes one connection of the kind a relay reads or writes:
// r is read by one side, w written by the other.
type endKind struct {
	name string
	make func(t *testing.T) (r, w *os.File)
}

var endKinds = map[string]endKind{
	// os.Pipe: non-blocking, polled by Go (the shim's pipes to the server).
	"pipe": {"pipe", func(t *testing.T) (*os.File, *os.File) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		return r, w
	}},
	// A blocking pipe, as the shim's stdin and stdout are (Go does not poll them).
	"blocking pipe": {"blocking pipe", func(t *testing.T) (*os.File, *os.File) {
		var p [2]int
		if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
			t.Fatal(err)
		}
		return os.NewFile(uintptr(p[0]), "pipe-r"), os.NewFile(uintptr(p[1]), "pipe-w")
	}},
	// A socketpair, as Node and Electron clients spawn with (blocking).
	"socket": {"socket", func(t *testing.T) (*os.File, *os.File) { return socketPair(t, false) }},
	// A non-blocking socketpair, polled by Go.
	"polled socket": {"polled socket", func(t *testing.T) (*os.File, *os.File) { return socketPair(t, true) }},
}

func socketPair(t *testing.T, nonblock bool) (*os.File, *os.File) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if nonblock {
		for _, fd := range fds {
			if err := unix.SetNonblock(fd, true); err != nil {
				t.Fatal(err)
			}
		}
	}
	return os.NewFile(uintptr(fds[0]), "sock-r"), os.NewFile(uintptr(fds[1]), "sock-w")
}

// hashRecorder hashes the stream its frames make (each with its "\n"
// unless NoEOL), so that 64 MiB frames are checked without keeping them.
type hashRecorder struct {
	mu     sync.Mutex
	h      map[session.Direction]hashCount
	frames int
}

type hashCount struct {
	sum interface {
		io.Writer
		Sum([]byte) []byte
	}
	n int64
}

func (h *hashRecorder) Record(recs ...session.Record) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.h == nil {
		h.h = map[session.Direction]hashCount{}
	}
	for _, r := range recs {
		if !r.HasFrame {
			continue
		}
		hc, ok := h.h[r.Dir]
		if !ok {
			hc.sum = sha256.New()
		}
		hc.sum.Write(r.Frame)
		hc.n += int64(len(r.Frame))
		if !r.NoEOL {
			hc.sum.Write([]byte{'\n'})
			hc.n++
		}
		h.h[r.Dir] = hc
		h.frames++
	}
}

func (h *hashRecorder) Close() error { return nil }

func (h *hashRecorder) sum(dir session.Direction) ([32]byte, int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var s [32]byte
	hc, ok := h.h[dir]
	if !ok {
		return sha256.Sum256(nil), 0
	}
	copy(s[:], hc.sum.Sum(nil))
	return s, hc.n
}

// spliceData are the streams of the byte-exactness table.
func spliceData(big bool) []struct {
	name string
	data []byte
} {
	r := rand.New(rand.NewPCG(30, 1))
	mb := bytes.Repeat(frame1MB(), 6)
	out := []struct {
		name string
		data []byte
	}{
		{"mixed lines", randomStream(r, 600, 200_000)},
		{"1 MiB frames", mb},
		// The writer closes mid-frame: an unterminated last line.
		{"closed mid-frame", mb[:len(mb)*3/4+17]},
	}
	if big {
		// One frame of 64 MiB with its newline (the recording cap), then
		// a short one.
		f := bytes.Repeat([]byte("x"), DefaultMaxFrame+1)
		copy(f, `{"big":"`)
		f[len(f)-3], f[len(f)-2], f[len(f)-1] = '"', '}', '\n'
		out = append(out, struct {
			name string
			data []byte
		}{"64 MiB frame", append(f, `{"after":1}`...)})
	}
	return out
}

func frame1MB() []byte {
	f := bytes.Repeat([]byte("é"), 1<<19)
	return append(append([]byte(`{"jsonrpc":"2.0","id":1,"result":"`), f...), "\"}\n"...)
}

var paths = []struct {
	name   string
	splice bool
	want   string
}{
	{"copy", false, PathCopy},
	{"splice", true, PathSplice},
}

// relayPair runs Relay from src kind to dst kind with data written into
// src; readFor bytes are read from dst before it is closed (all if < 0).
// It returns what Relay returned and what dst's reader got.
func relayPair(t *testing.T, srcKind, dstKind endKind, data []byte, splice bool, rec Recorder, readFor int, keep bool) (RelayResult, []byte) {
	t.Helper()
	srcR, srcW := srcKind.make(t)
	dstR, dstW := dstKind.make(t)
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		srcW.Write(data)
		srcW.Close()
	}()
	got := make(chan []byte, 1)
	go func() {
		var b bytes.Buffer
		b.Grow(len(data)) // no regrowth copies (costly under -race)
		if readFor < 0 {
			b.ReadFrom(dstR)
		} else {
			io.CopyN(&b, dstR, int64(readFor))
		}
		dstR.Close()
		got <- b.Bytes()
	}()
	res := Relay(dstW, srcR, &RelayOptions{Dir: session.ClientToServer, Transport: session.Stdio, Recorder: rec, Splice: splice, KeepReading: keep})
	srcR.Close()
	dstW.Close()
	b := <-got
	<-wrote
	return res, b
}

// TestRelayByteExact relays every stream of spliceData between every
// pair of end kinds on both paths: dst gets the bytes unchanged, the
// recorder gets every frame, and the path is the one asked for.
func TestRelayByteExact(t *testing.T) {
	pairs := [][2]string{
		{"pipe", "pipe"}, {"blocking pipe", "pipe"}, {"pipe", "blocking pipe"},
		{"blocking pipe", "blocking pipe"}, {"socket", "pipe"}, {"pipe", "socket"},
		{"socket", "socket"}, {"polled socket", "polled socket"}, {"polled socket", "blocking pipe"},
	}
	// The streams are made once (under -race, making them is not cheap).
	small, large := spliceData(false), spliceData(!testing.Short())
	for _, p := range paths {
		for _, pr := range pairs {
			src, dst := endKinds[pr[0]], endKinds[pr[1]]
			data := small
			if pr == [2]string{"pipe", "pipe"} || pr == [2]string{"socket", "socket"} || pr == [2]string{"blocking pipe", "blocking pipe"} {
				data = large
			}
			for _, d := range data {
				t.Run(fmt.Sprintf("%s/%s to %s/%s", p.name, src.name, dst.name, d.name), func(t *testing.T) {
					for _, recording := range []bool{false, true} {
						rec := &hashRecorder{}
						var r Recorder
						if recording {
							r = rec
						}
						res, got := relayPair(t, src, dst, d.data, p.splice, r, -1, false)
						if res.Path != p.want {
							t.Errorf("recording %v: path %q, want %q", recording, res.Path, p.want)
						}
						if res.ReadErr != nil || res.WriteErr != nil {
							t.Fatalf("recording %v: read error %v, write error %v", recording, res.ReadErr, res.WriteErr)
						}
						if !bytes.Equal(got, d.data) {
							t.Fatalf("recording %v: dst got %d bytes (sha %x), sent %d (sha %x)", recording, len(got), sha256.Sum256(got), len(d.data), sha256.Sum256(d.data))
						}
						if res.Bytes != int64(len(d.data)) {
							t.Errorf("recording %v: Bytes = %d, want %d", recording, res.Bytes, len(d.data))
						}
						if recording {
							sum, n := rec.sum(session.ClientToServer)
							if sum != sha256.Sum256(d.data) {
								t.Errorf("the recorded stream (%d bytes) differs from the %d bytes sent", n, len(d.data))
							}
							if int64(rec.frames) != res.Frames {
								t.Errorf("recorder got %d frames, relay says %d", rec.frames, res.Frames)
							}
						}
					}
				})
			}
		}
	}
}

// TestRelayDstClosesMidFrame: the client (dst's reader) goes away in the
// middle of a 1 MiB frame. dst got a prefix of the stream; the write
// error is EPIPE; with KeepReading the relay reads src to its end and
// records all of it, without it the recorded stream is a prefix too.
func TestRelayDstClosesMidFrame(t *testing.T) {
	data := bytes.Repeat(frame1MB(), 8)
	cut := 2<<20 + 12345
	for _, p := range paths {
		for _, pr := range [][2]string{{"pipe", "pipe"}, {"blocking pipe", "blocking pipe"}, {"socket", "socket"}, {"polled socket", "pipe"}} {
			for _, keep := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s to %s/keep=%v", p.name, pr[0], pr[1], keep), func(t *testing.T) {
					rec := &hashRecorder{}
					res, got := relayPair(t, endKinds[pr[0]], endKinds[pr[1]], data, p.splice, rec, cut, keep)
					if res.Path != p.want {
						t.Errorf("path %q, want %q", res.Path, p.want)
					}
					if !bytes.Equal(got, data[:len(got)]) || len(got) < cut {
						t.Fatalf("dst got %d bytes that are not the first %d sent", len(got), cut)
					}
					if !errors.Is(res.WriteErr, syscall.EPIPE) && !errors.Is(res.WriteErr, syscall.ECONNRESET) {
						t.Errorf("write error %v, want EPIPE", res.WriteErr)
					}
					sum, n := rec.sum(session.ClientToServer)
					if keep {
						if res.Bytes != int64(len(data)) || sum != sha256.Sum256(data) {
							t.Errorf("KeepReading: read %d bytes, recorded %d, want all %d recorded", res.Bytes, n, len(data))
						}
						return
					}
					// It stops at the failed write; what it read is recorded,
					// the piece of a line last as an unterminated one.
					if res.Bytes >= int64(len(data)) || n != res.Bytes || sum != sha256.Sum256(data[:res.Bytes]) {
						t.Errorf("read %d of %d bytes and recorded %d, want the %d read recorded", res.Bytes, len(data), n, res.Bytes)
					}
				})
			}
		}
	}
}

// fdCount is the number of this process's open file descriptors.
func fdCount(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	return len(ents)
}

// TestSpliceRelayNoFDLeak: the splice relay's own pipes are closed
// whatever way it ends (end of file, a failed write, with and without a
// recorder).
func TestSpliceRelayNoFDLeak(t *testing.T) {
	data := bytes.Repeat(frame1MB(), 3)
	run := func() {
		for _, rec := range []Recorder{nil, &hashRecorder{}} {
			relayPair(t, endKinds["pipe"], endKinds["pipe"], data, true, rec, -1, false)
			relayPair(t, endKinds["socket"], endKinds["blocking pipe"], data, true, rec, -1, false)
			relayPair(t, endKinds["pipe"], endKinds["socket"], data, true, rec, 1<<20, true)
			relayPair(t, endKinds["pipe"], endKinds["pipe"], data, true, rec, 1<<20, false)
		}
	}
	run() // the runtime's own descriptors (epoll) are open from here on
	before := fdCount(t)
	for range 5 {
		run()
	}
	if after := fdCount(t); after != before {
		t.Errorf("%d file descriptors open before, %d after 5 runs of 8 relays", before, after)
	}
}

// TestRunStdioSpliceByteExact runs the shim around the cat helper with the
// client's ends as pipes and as sockets, on both paths: both directions
// byte for byte, recorded whole, and the path named in the start record.
func TestRunStdioSpliceByteExact(t *testing.T) {
	data := spliceData(!testing.Short())
	for _, p := range paths {
		for _, kind := range []string{"blocking pipe", "socket"} {
			t.Run(p.name+"/"+kind, func(t *testing.T) {
				mode := RelayCopy
				if p.splice {
					mode = RelaySplice
				}
				for _, d := range data {
					inR, inW := endKinds[kind].make(t)
					outR, outW := endKinds[kind].make(t)
					argv, env := helperCommand(t, "cat")
					rec := &startRecorder{}
					go func() {
						inW.Write(d.data)
						inW.Close()
					}()
					got := make(chan [32]byte, 1)
					go func() {
						h := sha256.New()
						io.Copy(h, outR)
						var s [32]byte
						copy(s[:], h.Sum(nil))
						got <- s
					}()
					st, err := RunStdio(context.Background(), &StdioOptions{
						Command: argv, Env: env, Stdin: inR, Stdout: outW, Stderr: io.Discard,
						Recorder: rec, Relay: mode,
					})
					inR.Close()
					outW.Close()
					if err != nil || st.Code != 0 {
						t.Fatalf("%s: %v %+v", d.name, err, st)
					}
					want := sha256.Sum256(d.data)
					if g := <-got; g != want {
						t.Errorf("%s: the client got other bytes than it sent through cat", d.name)
					}
					for _, dir := range []session.Direction{session.ClientToServer, session.ServerToClient, session.Stderr} {
						if sum, n := rec.sum(dir); sum != want {
							t.Errorf("%s: %s recorded %d bytes that are not the %d sent", d.name, dir, n, len(d.data))
						}
					}
					if w := fmt.Sprintf(`"relay":{"c2s":%q,"s2c":%q,"stderr":"copy"}`, p.want, p.want); !bytes.Contains(rec.start, []byte(w)) {
						t.Errorf("start record %s, want %s", rec.start, w)
					}
				}
			})
		}
	}
}

// startRecorder is a hashRecorder that keeps the start record's info.
type startRecorder struct {
	hashRecorder
	start []byte
}

func (s *startRecorder) Record(recs ...session.Record) {
	for _, r := range recs {
		if r.Kind == session.KindStart {
			s.start = append([]byte(nil), r.Info...)
		}
	}
	s.hashRecorder.Record(recs...)
}

// TestUseSplice pins the default of issue 30: RelayAuto splices wherever
// both ends allow it (proxybench showed the splice path cheaper with and
// without a recorder), RelayCopy never, and nothing splices a non-file.
func TestUseSplice(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, tc := range []struct {
		mode RelayMode
		dst  io.Writer
		want bool
	}{
		{RelayAuto, w, true},
		{RelaySplice, w, true},
		{RelayCopy, w, false},
		{RelayAuto, &bytes.Buffer{}, false},
		{RelaySplice, &bytes.Buffer{}, false},
		{RelaySplice, &heldWriter{w: w}, true},
		{RelayAuto, &heldWriter{w: w}, true},
	} {
		if got := useSplice(tc.mode, tc.dst, r); got != tc.want {
			t.Errorf("useSplice(%q, %T) = %v, want %v", tc.mode, tc.dst, got, tc.want)
		}
	}
}
