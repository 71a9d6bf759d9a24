package compat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/target"
)

// stdioScriptArg makes the test binary a stdio server: an embedded fixture
// behind a script (see serveStdioScript). compat spawns it as a real
// child process, fresh connections included.
const stdioScriptArg = "mcpward-compat-stdio-script"

func TestMain(m *testing.M) {
	if len(os.Args) == 4 && os.Args[1] == stdioScriptArg {
		os.Exit(serveStdioScript(os.Args[2], []byte(os.Args[3])))
	}
	os.Exit(m.Run())
}

// connectStdioScripted runs the fixture behind the script as a child
// process over stdio and connects to it.
func connectStdioScripted(t *testing.T, name string, script []byte) *target.Session {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec := &target.Spec{Name: name, Command: []string{exe, stdioScriptArg, name, string(script)}}
	// A child process is on real time: the client's default timeouts (10 s,
	// and 5 s for the era probe), not the in-process runs' 1 s era probe,
	// which a child's start under -race on a busy machine missed (the
	// client then fell back to initialize, and the modern-only fixture
	// refused it). The fixture answers everything, so nothing waits them out.
	s, err := target.Connect(context.Background(), spec, target.Env{}, &client.Options{RequestTimeout: client.DefaultRequestTimeout})
	if err != nil {
		t.Fatalf("connect %s behind a stdio script: %v", name, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// serveStdioScript serves the fixture over stdin and stdout. A line whose
// JSON-RPC method an override names is answered with the override's Body
// ("$ID" stands for the line's id, null for a notification) instead of
// reaching the fixture; a notification reaches the fixture as well.
func serveStdioScript(name string, script []byte) int {
	var ovs []*scriptOverride
	if err := json.Unmarshal(script, &ovs); err != nil {
		fmt.Fprintln(os.Stderr, "script:", err)
		return 2
	}
	fx, err := fixture.Lookup(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var mu sync.Mutex
	writeLine := func(b []byte) {
		mu.Lock()
		defer mu.Unlock()
		os.Stdout.Write(append(bytes.TrimRight(b, "\n"), '\n'))
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
	go func() {
		sc := bufio.NewScanner(os.Stdin)
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
			inW.Write(append(bytes.Clone(line), '\n'))
		}
		inW.Close()
	}()
	code, err := fx.Serve(context.Background(), inR, outW, os.Stderr)
	outW.Close()
	<-flushed
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	return code
}
