package fuzzrun

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fuzz"
)

// testServer is an in-process legacy stdio server with planted bugs,
// switched on by name, that counts the tools/call it gets per tool.
type testServer struct {
	bugs  map[string]bool
	mu    sync.Mutex
	calls map[string]int
	// starts counts the processes started (serve calls).
	starts int
}

const testTools = `[
 {"name":"delete_everything","description":"Deletes every record.","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true}},
 {"name":"get_config","description":"Returns the configuration.","inputSchema":{"type":"object"}},
 {"name":"fetch_page","description":"Returns a web page.","inputSchema":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]},"annotations":{"readOnlyHint":true}},
 {"name":"lookup","description":"Looks up a word in the local dictionary.","inputSchema":{"type":"object","properties":{"word":{"type":"string"}},"required":["word"]},"annotations":{"readOnlyHint":true,"openWorldHint":false}}
]`

func (s *testServer) serve(ctx context.Context, in io.Reader, out, _ io.Writer) (int, error) {
	s.mu.Lock()
	s.starts++
	s.mu.Unlock()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<16), 4<<20)
	zombie := false
	served := 0
	for sc.Scan() {
		line := sc.Bytes()
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		var p struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			switch {
			case s.bugs["crash"]:
				return 2, nil
			case s.bugs["zombie"]:
				zombie = true
			case s.bugs["junk"]:
				fmt.Fprintln(out, "error: bad line")
			default:
				fmt.Fprintln(out, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`)
			}
			continue
		}
		if zombie || len(m.ID) == 0 {
			continue
		}
		if s.bugs["hang"] && len(m.ID) > 1000 {
			continue
		}
		served++
		reply := func(result string) { fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, result) }
		switch m.Method {
		case "initialize":
			reply(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"planted","version":"1"}}`)
		case "ping":
			reply(`{}`)
		case "tools/list":
			reply(`{"tools":` + strings.ReplaceAll(testTools, "\n", "") + `}`)
		case "tools/call":
			s.mu.Lock()
			_ = json.Unmarshal(m.Params, &p)
			s.calls[p.Name]++
			s.mu.Unlock()
			reply(`{"content":[{"type":"text","text":"ok"}]}`)
		default:
			code := -32601
			if s.bugs["tired"] && served > 4 {
				// A process that served more than 4 requests answers
				// unknown methods with the wrong code: only a reused
				// session sees it.
				code = -32600
			}
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":"no such method"}}`+"\n", m.ID, code)
		}
	}
	return 0, nil
}

func run(t *testing.T, bugs []string, allow []string, cases int) (*testServer, *Report) {
	t.Helper()
	s := &testServer{bugs: map[string]bool{}, calls: map[string]int{}}
	for _, b := range bugs {
		s.bugs[b] = true
	}
	o := &Options{Spec: &connect.Spec{Serve: s.serve, Timeout: 5 * time.Second}, Era: "legacy", Seed: 1, Cases: cases,
		CaseTimeout: 200 * time.Millisecond, AllowTools: allow}
	// The server is in-process (Spec.Serve over io.Pipe): in a
	// testing/synctest bubble the case timeouts pass on the bubble's clock.
	var rep *Report
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		p, err := Prepare(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if rep, err = Run(ctx, o, p); err != nil {
			t.Fatal(err)
		}
	})
	if rep == nil {
		t.FailNow()
	}
	return s, rep
}

func found(rep *Report) []string {
	var out []string
	for _, f := range rep.Found {
		if !slices.Contains(out, f.Rule) {
			out = append(out, f.Rule)
		}
	}
	slices.Sort(out)
	return out
}

// TestNeverCallsForbiddenTools: tools/call reaches only the tool both facts
// call read-only and closed-world, and a tool named with AllowTools.
func TestNeverCallsForbiddenTools(t *testing.T) {
	s, rep := run(t, nil, nil, 0)
	var decisions []string
	for _, d := range rep.Plan.Tools {
		decisions = append(decisions, fmt.Sprintf("%s=%v", d.Name, d.Call))
	}
	if got := strings.Join(decisions, " "); got != "delete_everything=false get_config=false fetch_page=false lookup=true" {
		t.Errorf("decisions: %s", got)
	}
	for _, name := range []string{"delete_everything", "get_config", "fetch_page"} {
		if s.calls[name] != 0 {
			t.Errorf("%s was called %d times", name, s.calls[name])
		}
	}
	if s.calls["lookup"] == 0 {
		t.Error("lookup (read-only by both facts, closed world) was never called")
	}
	if !slices.Contains(found(rep), fuzz.RuleInvalidArgsRun) {
		t.Errorf("lookup accepts a missing required word, yet no %s: %v", fuzz.RuleInvalidArgsRun, found(rep))
	}

	s, rep = run(t, nil, []string{"fetch_page"}, 0)
	if s.calls["fetch_page"] == 0 || s.calls["delete_everything"] != 0 || s.calls["get_config"] != 0 {
		t.Errorf("with --allow-tool fetch_page: calls %v", s.calls)
	}
	if d := rep.Plan.Tools[2]; !d.Call || !d.Allowed {
		t.Errorf("fetch_page decision %+v", d)
	}
}

func TestPlantedBugs(t *testing.T) {
	for _, tt := range []struct {
		bug  string
		want []string
	}{
		{"", nil},
		{"crash", []string{fuzz.RuleCrash}},
		{"zombie", []string{fuzz.RuleZombie}},
		{"junk", []string{fuzz.RuleStdoutNotClean}},
		{"hang", []string{fuzz.RuleHang}},
	} {
		t.Run(tt.bug, func(t *testing.T) {
			var bugs []string
			if tt.bug != "" {
				bugs = []string{tt.bug}
			}
			// The first 30 cases hold malformed lines and the 1 KiB id.
			_, rep := run(t, bugs, nil, 30)
			got := slices.DeleteFunc(found(rep), func(r string) bool { return strings.HasSuffix(r, "_code") || r == fuzz.RuleInvalidArgsRun })
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("found %v, want %v", got, tt.want)
			}
			for _, f := range rep.Found {
				if len(f.Case.Frames) == 0 {
					t.Errorf("%s: no frames", f.Rule)
				}
			}
			if len(rep.Problems) > 0 {
				t.Errorf("problems: %v", rep.Problems)
			}
		})
	}
}

// TestReusedSessions: a well-formed case runs on the session the case
// before it left healthy (fewer processes than cases), and what only a
// reused session shows (the tired server's wrong code after 4 requests)
// is not reported, because a finding must reproduce on a fresh process.
func TestReusedSessions(t *testing.T) {
	s, rep := run(t, []string{"tired"}, nil, 0)
	if s.starts >= len(rep.Plan.Cases) {
		t.Errorf("%d processes for %d cases: no session was reused", s.starts, len(rep.Plan.Cases))
	}
	if slices.Contains(found(rep), fuzz.RuleMethodNotFoundCode) {
		t.Errorf("a wrong code only a reused session saw was reported: %v", found(rep))
	}
	t.Logf("%d processes for %d cases", s.starts, len(rep.Plan.Cases))
	for _, c := range rep.Plan.Cases {
		if reusable(c) && strings.HasPrefix(c.Name, "json/") {
			t.Errorf("%s is reusable, but it is malformed JSON", c.Name)
		}
	}
}
