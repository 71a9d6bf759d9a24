// Package sitetest makes the inputs the site's tests feed the engine: real
// snapshots recorded from the embedded fixtures, a snapshot whose tool
// description is hostile markup, and session logs of any size. Only tests
// import it.
package sitetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// Hostile is the tool description of [HostileSnapshot]: markup that would
// run or show as an element if a page put it into the DOM as HTML.
const Hostile = `<img src=x onerror="document.title='pwned'"><b id="injected">bold</b><script>document.title='pwned'</script>`

// Record records the embedded fixture fx with the probes of the fixture
// probesOf (so two recordings are comparable) and writes dir/name.snapshot.json.
func Record(t testing.TB, dir, name, fx, probesOf string) string {
	t.Helper()
	tg, err := contract.FromEntry(name, &config.Target{Fixture: fx}, &connect.Source{})
	if err != nil {
		t.Fatal(err)
	}
	if tg.Probes, err = contract.FixtureProbes(probesOf); err != nil {
		t.Fatal(err)
	}
	obs, err := contract.Observe(context.Background(), tg, &contract.ObserveOptions{Version: "test",
		Now: func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }})
	if err != nil || !obs.Complete() {
		t.Fatalf("record %s: %v %v", fx, err, obs)
	}
	p := filepath.Join(dir, name+".snapshot.json")
	if err := contract.WriteSnapshot(p, obs.Snapshot); err != nil {
		t.Fatal(err)
	}
	return p
}

// HostileName is the name of the tool [HostileSnapshot] adds.
const HostileName = `<img src=x onerror="document.title='pwned'">`

// HostileSnapshot copies the snapshot at from to dir/name.snapshot.json
// with every tool description replaced by [Hostile], and one more tool,
// named [HostileName].
func HostileSnapshot(t testing.TB, from, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range s.Surface.Tools {
		tool["description"] = Hostile
	}
	extra := snapshot.Object{}
	for k, v := range s.Surface.Tools[0] {
		extra[k] = v
	}
	extra["name"] = HostileName
	s.Surface.Tools = append(s.Surface.Tools, extra)
	slices.SortFunc(s.Surface.Tools, func(a, b snapshot.Object) int {
		return strings.Compare(snapshot.Str(a, "name"), snapshot.Str(b, "name"))
	})
	p := filepath.Join(dir, name+".snapshot.json")
	if err := contract.WriteSnapshot(p, s); err != nil {
		t.Fatal(err)
	}
	return p
}

// Log writes a session log of at least size bytes to path: one modern
// stdio session that lists one tool (whose description is [Hostile]),
// calls it again and again with results padded to about 4 KiB, and in the
// middle receives a JSON-RPC request from the server, which the traffic
// rules call a MUST violation (transport.server_request). It returns the
// number of records.
func Log(t testing.TB, path string, size int64) int {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const sess = "01JSITETEST0000000000000000"
	start := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	var seq uint64
	var written int64
	var buf []byte
	put := func(dir session.Direction, frame string) {
		seq++
		buf = session.AppendRecord(buf[:0], &session.Record{Session: sess, Label: "sitetest", Seq: seq,
			Time: start.Add(time.Duration(seq) * time.Millisecond), Dir: dir, Transport: session.Stdio,
			Frame: []byte(frame), HasFrame: true, Size: int64(len(frame))})
		n, err := f.Write(buf)
		if err != nil {
			t.Fatal(err)
		}
		written += int64(n)
	}
	desc := strings.ReplaceAll(strings.ReplaceAll(Hostile, `\`, `\\`), `"`, `\"`)
	put(session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta+`}}`)
	put(session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[{"name":"echo","description":"`+desc+`","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}}`)
	pad := strings.Repeat("lorem ipsum dolor sit amet ", 150)
	violated := false
	for id := 2; written < size; id++ {
		if !violated && written >= size/2 {
			put(session.ServerToClient, `{"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{}}`)
			violated = true
		}
		put(session.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi %d"},%s}}`, id, id, meta))
		put(session.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete","content":[{"type":"text","text":"%s %d"}]}}`, id, pad, id))
	}
	if !violated {
		put(session.ServerToClient, `{"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{}}`)
	}
	return int(seq)
}
