package compat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fixture"
)

// connectStdioScripted serves the fixture behind the script over stdio,
// in-process (connect.Spec.Serve: two io.Pipes, a fresh server for every
// connection, as a child process would be), and connects to it.
func connectStdioScripted(t *testing.T, name string, script []byte) *connect.Session {
	t.Helper()
	var ovs []*scriptOverride
	if err := json.Unmarshal(script, &ovs); err != nil {
		t.Fatalf("script: %v", err)
	}
	if _, err := fixture.Lookup(name); err != nil {
		t.Fatal(err)
	}
	serve := func(ctx context.Context, in io.Reader, out, stderr io.Writer) (int, error) {
		fx, err := fixture.Lookup(name) // as a fresh process would
		if err != nil {
			return 2, err
		}
		return serveStdioScript(ctx, fx, ovs, in, out, stderr)
	}
	spec := &connect.Spec{Name: name, Serve: serve}
	s, err := connect.Connect(context.Background(), spec, connect.Env{}, &client.Options{RequestTimeout: 5 * time.Second, DiscoverTimeout: time.Second})
	if err != nil {
		t.Fatalf("connect %s behind a stdio script: %v", name, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// serveStdioScript serves the fixture over in and out. A line whose
// JSON-RPC method an override names is answered with the override's Body
// ("$ID" stands for the line's id, null for a notification) instead of
// reaching the fixture; a notification reaches the fixture as well.
func serveStdioScript(ctx context.Context, fx *fixture.Fixture, ovs []*scriptOverride, in io.Reader, out, stderr io.Writer) (int, error) {
	var mu sync.Mutex
	writeLine := func(b []byte) {
		mu.Lock()
		defer mu.Unlock()
		out.Write(append(bytes.TrimRight(b, "\n"), '\n'))
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	flushed := make(chan struct{})
	go func() {
		defer close(flushed)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			writeLine(sc.Bytes())
		}
	}()
	go func() { // ends when the connection closes in, after Serve returns
		sc := bufio.NewScanner(in)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			_ = json.Unmarshal(line, &msg)
			var ov *scriptOverride
			for _, o := range ovs {
				if o.Method != "" && o.Method == msg.Method {
					ov = o
					break
				}
			}
			if ov != nil {
				id := msg.ID
				if id == nil {
					id = json.RawMessage("null")
				}
				writeLine(bytes.ReplaceAll(ov.Body, []byte(`"$ID"`), id))
				if msg.ID != nil {
					continue
				}
			}
			if _, err := inW.Write(append(bytes.Clone(line), '\n')); err != nil {
				return // the fixture stopped reading
			}
		}
		inW.Close()
	}()
	code, err := fx.Serve(ctx, inR, outW, stderr)
	inR.Close() // a line still being handed over ends the reader
	outW.Close()
	<-flushed
	return code, err
}
