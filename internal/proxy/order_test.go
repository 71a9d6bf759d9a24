package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/mcpward/mcpward/internal/session"
)

// Issue 22 item 1: the log's order is the wire's order. The shim forwarded
// a read before its lines reached the recorder, so a peer that answered at
// once had its answer numbered first (4-79 inverted pairs in a 1,000-call
// burst against the go-sdk everything-server).

// inverted returns the responses of recs numbered before the request they
// answer ("seq R < seq Q" per pair), and the number of pairs. A request's
// id is qualified by its direction, so the client's id 1 and the
// server's id 1 are different calls.
func inverted(t *testing.T, recs []*session.Record) (bad []string, pairs int) {
	t.Helper()
	type msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	reqs := map[string]uint64{}
	type resp struct {
		key string
		seq uint64
	}
	var resps []resp
	for _, r := range recs {
		if r.Dir != session.ClientToServer && r.Dir != session.ServerToClient {
			continue
		}
		var m msg
		if json.Unmarshal(r.Frame, &m) != nil || len(m.ID) == 0 {
			continue
		}
		if m.Method != "" {
			reqs[string(r.Dir)+string(m.ID)] = r.Seq
			continue
		}
		from := session.ClientToServer // a response travels against its request
		if r.Dir == session.ClientToServer {
			from = session.ServerToClient
		}
		resps = append(resps, resp{string(from) + string(m.ID), r.Seq})
	}
	for _, p := range resps {
		q, ok := reqs[p.key]
		if !ok {
			t.Errorf("response %s (seq %d) has no request", p.key, p.seq)
			continue
		}
		pairs++
		if p.seq < q {
			bad = append(bad, fmt.Sprintf("%s: response seq %d < request seq %d", p.key, p.seq, q))
		}
	}
	return bad, pairs
}

// orderRecorder is a Log that tells a waiter when a frame was handed to
// it: the peer of TestRelayOrderAnswerInsideWrite waits, inside the write
// of a request, until its answer is recorded, which makes the old race
// (request recorded after its write returned) lose every time.
type orderRecorder struct {
	log     *Log
	mu      sync.Mutex
	waiters map[string]chan struct{}
}

func (o *orderRecorder) Record(recs ...session.Record) {
	o.log.Record(recs...)
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, r := range recs {
		if ch, ok := o.waiters[string(r.Frame)]; ok {
			close(ch)
			delete(o.waiters, string(r.Frame))
		}
	}
}

func (o *orderRecorder) Close() error { return o.log.Close() }

// expect registers a wait for frame to be recorded.
func (o *orderRecorder) expect(frame string) <-chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	ch := make(chan struct{})
	o.waiters[frame] = ch
	return ch
}

// answerer is one peer's input: each request written to it is answered
// inside the Write, by writing the answer to out (the other relay's source)
// and waiting until that relay has recorded it. A response written to it
// is passed to got.
type answerer struct {
	rec  *orderRecorder
	out  io.Writer
	got  chan<- string
	line []byte
}

func (a *answerer) Write(p []byte) (int, error) {
	a.line = append(a.line, p...)
	for {
		i := bytes.IndexByte(a.line, '\n')
		if i < 0 {
			return len(p), nil
		}
		frame := string(a.line[:i])
		a.line = a.line[i+1:]
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.Unmarshal([]byte(frame), &m); err != nil {
			return 0, err
		}
		if m.Method == "" {
			a.got <- frame
			continue
		}
		answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, m.ID)
		done := a.rec.expect(answer)
		if _, err := io.WriteString(a.out, answer+"\n"); err != nil {
			return 0, err
		}
		<-done
	}
}

// TestRelayOrderAnswerInsideWrite relays calls both ways between two
// peers that answer inside the write of the request, before the relay's
// write returns; the log must number every request before its response.
func TestRelayOrderAnswerInsideWrite(t *testing.T) {
	const calls = 2000
	var file bytes.Buffer
	rec := &orderRecorder{log: NewLog(&file, nil), waiters: map[string]chan struct{}{}}
	c2sR, c2sW := io.Pipe() // the client's output, the c2s relay's source
	s2cR, s2cW := io.Pipe() // the server's output, the s2c relay's source
	clientGot, serverGot := make(chan string, 1), make(chan string, 1)
	server := &answerer{rec: rec, out: s2cW, got: serverGot}
	client := &answerer{rec: rec, out: c2sW, got: clientGot}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		Relay(server, c2sR, &RelayOptions{Dir: session.ClientToServer, Transport: session.Stdio, Recorder: rec})
	}()
	go func() {
		defer wg.Done()
		Relay(client, s2cR, &RelayOptions{Dir: session.ServerToClient, Transport: session.Stdio, Recorder: rec})
	}()
	for i := range calls {
		// The client calls; the server answers inside the write.
		if _, err := fmt.Fprintf(c2sW, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i); err != nil {
			t.Fatal(err)
		}
		<-clientGot
		// The server calls; the client answers inside the write.
		if _, err := fmt.Fprintf(s2cW, `{"jsonrpc":"2.0","id":"s%d","method":"ping"}`+"\n", i); err != nil {
			t.Fatal(err)
		}
		<-serverGot
	}
	c2sW.Close()
	s2cW.Close()
	wg.Wait()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	bad, pairs := inverted(t, readLog(t, &file))
	if pairs != 2*calls {
		t.Errorf("%d pairs in the log, want %d", pairs, 2*calls)
	}
	if len(bad) > 0 {
		t.Errorf("%d of %d responses numbered before their request, first: %s", len(bad), pairs, strings.Join(bad[:min(3, len(bad))], "; "))
	}
}

// TestRelayOrderBurst relays a pipelined burst both ways at once through
// a Log (the shim's recording path, leases included), with peers that
// answer as soon as they read a request: a race between the two relays
// (run it with -race -count=20) must never put a response first.
//
// It runs on both paths: over io.Pipe (the copy path) and over OS pipes
// with Splice set (the splice path, which numbers the chunk it teed before
// splicing it on), and on each checks the path taken.
func TestRelayOrderBurst(t *testing.T) {
	for _, p := range orderPipes {
		t.Run(p.name, func(t *testing.T) { testRelayOrderBurst(t, p.pipe, p.path) })
	}
}

// orderPipes are the connections of the order tests, one per relay path.
var orderPipes = []struct {
	name string
	pipe func(t *testing.T) (io.ReadCloser, io.WriteCloser)
	path string
}{
	{"copy", func(*testing.T) (io.ReadCloser, io.WriteCloser) { return io.Pipe() }, PathCopy},
	{"splice", osPipe, PathSplice},
}

func testRelayOrderBurst(t *testing.T, pipe func(t *testing.T) (io.ReadCloser, io.WriteCloser), path string) {
	const calls = 1000
	var file bytes.Buffer
	log := NewLog(&file, nil)
	c2sR, c2sW := pipe(t)
	srvInR, srvInW := pipe(t) // the c2s relay writes the server's stdin
	s2cR, s2cW := pipe(t)
	cliInR, cliInW := pipe(t) // the s2c relay writes the client's stdin
	var relays sync.WaitGroup
	relays.Add(2)
	paths := make(chan string, 2)
	go func() {
		defer relays.Done()
		res := Relay(srvInW, c2sR, &RelayOptions{Dir: session.ClientToServer, Transport: session.Stdio, Recorder: log, Splice: true})
		srvInW.Close()
		c2sR.Close()
		paths <- res.Path
	}()
	go func() {
		defer relays.Done()
		res := Relay(cliInW, s2cR, &RelayOptions{Dir: session.ServerToClient, Transport: session.Stdio, Recorder: log, Splice: true})
		cliInW.Close()
		s2cR.Close()
		paths <- res.Path
	}()
	// Each peer writes its calls and its answers through one writer
	// goroutine (a channel of lines), reads the other's lines, answers the
	// requests at once and counts the answers to its own calls.
	peer := func(prefix string, in io.ReadCloser, out io.WriteCloser, done chan<- int) {
		// Room for every line this peer sends (its calls and its
		// answers): a reader that waited for the writer would close a
		// loop of full pipes through both relays.
		lines := make(chan string, 2*calls)
		var writers sync.WaitGroup
		writers.Add(1)
		go func() {
			defer writers.Done()
			for l := range lines {
				if _, err := io.WriteString(out, l); err != nil {
					return
				}
			}
		}()
		var calling sync.WaitGroup
		calling.Add(1)
		go func() {
			defer calling.Done()
			for i := range calls {
				lines <- fmt.Sprintf(`{"jsonrpc":"2.0","id":"%s%d","method":"ping"}`+"\n", prefix, i)
			}
		}()
		// The other side sends as many calls: both are known to be done
		// when each peer has all its answers and has answered all calls.
		answers, answered := 0, 0
		sc := bufio.NewScanner(in)
		for (answers < calls || answered < calls) && sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			if m.Method != "" {
				lines <- fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`+"\n", m.ID)
				answered++
				continue
			}
			answers++
		}
		calling.Wait()
		close(lines)
		writers.Wait()
		out.Close()
		io.Copy(io.Discard, in)
		in.Close()
		done <- answers
	}
	done := make(chan int, 2)
	go peer("c", cliInR, c2sW, done)
	go peer("s", srvInR, s2cW, done)
	for range 2 {
		if n := <-done; n != calls {
			t.Errorf("a peer got %d answers, want %d", n, calls)
		}
	}
	relays.Wait()
	for range 2 {
		if got := <-paths; got != path {
			t.Errorf("relay path %q, want %q", got, path)
		}
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	bad, pairs := inverted(t, readLog(t, &file))
	if pairs != 2*calls {
		t.Errorf("%d pairs in the log, want %d", pairs, 2*calls)
	}
	if len(bad) > 0 {
		t.Errorf("%d of %d responses numbered before their request, first: %s", len(bad), pairs, strings.Join(bad[:min(3, len(bad))], "; "))
	}
}

// osPipe is an OS pipe, which a relay with Splice set splices.
func osPipe(t *testing.T) (io.ReadCloser, io.WriteCloser) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}

// checkWriter is the client's end of an HTTP exchange: each write to it
// checks that what it completes is in the recorder already (an event by
// its blank line, a whole body by its length), since the client may
// answer it as soon as it has it.
type checkWriter struct {
	t      *testing.T
	rec    *memRecorder
	header http.Header
	body   []byte
	whole  int // the length of a JSON body; 0 for a stream
	status int
}

func (c *checkWriter) Header() http.Header  { return c.header }
func (c *checkWriter) WriteHeader(code int) { c.status = code }
func (c *checkWriter) Flush()               {}

func (c *checkWriter) Write(p []byte) (int, error) {
	c.body = append(c.body, p...)
	var frames int
	for _, r := range c.rec.records() {
		if r.Dir == session.ServerToClient && r.HasFrame {
			frames++
		}
	}
	want := bytes.Count(c.body, []byte("\n\n"))
	if c.whole > 0 {
		want = 0
		if len(c.body) == c.whole {
			want = 1
		}
	}
	if frames < want {
		c.t.Errorf("after %d bytes forwarded, %d response frames recorded, want %d", len(c.body), frames, want)
	}
	return len(p), nil
}

// TestHTTPProxyRecordsBeforeForwarding pins the order of the wire on HTTP
// (issue 22 item 1): an event, or the end of a JSON body, is recorded
// before the client gets it, whether the body's length is announced or not.
func TestHTTPProxyRecordsBeforeForwarding(t *testing.T) {
	const answer = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}`
	tests := []struct {
		name   string
		target http.HandlerFunc
		whole  int
	}{
		{"sse", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := range 20 {
				fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"s%d\",\"method\":\"ping\"}\n\n", i)
				w.(http.Flusher).Flush()
			}
		}, 0},
		{"json with length", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", fmt.Sprint(len(answer)))
			io.WriteString(w, answer[:10])
			w.(http.Flusher).Flush()
			io.WriteString(w, answer[10:])
		}, len(answer)},
		{"json chunked", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			for i := 0; i < len(answer); i += 16 {
				io.WriteString(w, answer[i:min(i+16, len(answer))])
				w.(http.Flusher).Flush()
			}
		}, len(answer)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(tt.target)
			defer ts.Close()
			u, _ := url.Parse(ts.URL)
			rec := &memRecorder{}
			p := NewHTTPProxy(&HTTPOptions{Target: u, Recorder: rec})
			cw := &checkWriter{t: t, rec: rec, header: http.Header{}, whole: tt.whole}
			p.ServeHTTP(cw, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)))
			if cw.whole > 0 && string(cw.body) != answer {
				t.Errorf("client got %q, want %q", cw.body, answer)
			}
			if cw.whole == 0 && bytes.Count(cw.body, []byte("\n\n")) != 20 {
				t.Errorf("client got %q, want 20 events", cw.body)
			}
		})
	}
}
