package transport

import (
	"errors"
	"testing"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// serveLines runs a tiny in-process server on a pipe end: it answers each
// request with its method, sends a notification first for "notify", and
// closes the stream for "quit".
func serveLines(end *PipeEnd) {
	defer end.Close()
	lr := jsonrpc.NewLineReader(end.R)
	for {
		line, err := lr.ReadLine()
		if err != nil {
			return
		}
		m := jsonrpc.Decode(line)
		switch m.Method {
		case "quit":
			return
		case "notify":
			end.W.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}` + "\n"))
		}
		if m.Kind == jsonrpc.KindRequest {
			b, _ := jsonrpc.EncodeResult(m.ID, m.Method)
			end.W.Write(append(b, '\n'))
		}
	}
}

func TestStream(t *testing.T) {
	checkGoroutines(t)
	c, end := Pipe(&StreamOptions{Kind: "fixture"})
	done := make(chan struct{})
	go func() { serveLines(end); close(done) }()
	if c.Kind() != "fixture" {
		t.Errorf("Kind = %q", c.Kind())
	}
	r, err := c.Call(testCtx(t), request(t, jsonrpc.StringID("a"), "notify"))
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Response.Result) != `"notify"` || len(r.Related) != 1 || r.Related[0].Method != "notifications/progress" {
		t.Errorf("reply = %s, related %+v", r.Response.Raw, r.Related)
	}
	_, err = c.Call(testCtx(t), request(t, jsonrpc.IntID(2), "quit"))
	if !errors.Is(err, ErrExited) || !errors.Is(err, fault.ErrIncomplete) {
		t.Errorf("Call(quit) = %v, want ErrExited", err)
	}
	if err.Error() != "server closed the stream before answering quit" {
		t.Errorf("error = %q", err)
	}
	<-done
	c.Close()
	c.Close()
}

func TestStreamCloseWhileWaiting(t *testing.T) {
	checkGoroutines(t)
	c, end := Pipe(nil)
	go func() {
		jsonrpc.NewLineReader(end.R).ReadLine() // read the request, never answer
		c.Close()
	}()
	_, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "m"))
	if !errors.Is(err, ErrClosed) {
		t.Errorf("Call = %v, want ErrClosed", err)
	}
	end.Close()
}
