package compat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/transport"
)

// Each testdata/rules/<rule-id>.txtar holds a run that triggers the rule
// ("-- case --", with the rule's findings in "-- findings --") and one
// that must not ("-- clean --": the rule id must not appear among its
// findings), as internal/traffic/testdata does for the traffic checker.
//
// A script on a stdio run serves the fixture in-process behind overrides
// that answer a method in its place (see serveStdioScript).
//
// A run section is a line "fixture NAME http|stdio", optionally
// followed by "profiles A,B" (built-in profiles) and lines "profile NAME
// JSON" (custom profiles, as under profiles in mcpward.json). A run over http may carry a script
// ("-- case.script --" or "-- clean.script --"): a JSON list of
// overrides put in front of the fixture's HTTP handler, so that a case
// can script one exchange the embedded fixtures do not misbehave in (see
// scriptOverride).
func TestRules(t *testing.T) {
	files, err := filepath.Glob("testdata/rules/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		id := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			if _, ok := rules.Lookup(id); !ok {
				t.Fatalf("%s is not a catalogued rule", id)
			}
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string][]byte{}
			for _, f := range ar.Files {
				sections[f.Name] = f.Data
			}
			inBubble(t, func(t *testing.T) { ruleCase(t, file, id, ar, sections) })
		})
	}
}

// ruleCase runs one rule's case and clean runs and compares the case's
// findings with the file's.
func ruleCase(t *testing.T, file, id string, ar *txtar.Archive, sections map[string][]byte) {
	t.Helper()
	rep := ruleRun(t, sections["case"], sections["case.script"])
	checkClauseTransports(t, rep)
	got := ruleFindings(rep, id)
	if why, ok := cannotFire[id]; ok {
		if got != "" {
			t.Fatalf("the case triggers %s now: take it off cannotFire (%s)", id, why)
		}
		t.Skipf("compat cannot report %s yet: %s", id, why)
	}
	if got == "" {
		for _, f := range rep.Findings() {
			t.Logf("%s %s: %s", f.RuleID, f.Subject, f.Message)
		}
		t.Errorf("the case does not trigger %s (findings above)", id)
	}
	if *update {
		for i := range ar.Files {
			if ar.Files[i].Name == "findings" {
				ar.Files[i].Data = []byte(got)
			}
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if d := cmp.Diff(string(sections["findings"]), got); d != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", d)
	}
	clean, ok := sections["clean"]
	if !ok {
		if _, always := alwaysReported[id]; !always {
			t.Fatalf("no clean section: every rule needs a run that must not trigger it")
		}
		return
	}
	if got := ruleFindings(ruleRun(t, clean, sections["clean.script"]), id); got != "" {
		t.Errorf("the clean run triggers %s:\n%s", id, got)
	}
}

// alwaysReported are rules every run reports, so no run can be clean of
// them.
var alwaysReported = map[string]string{
	"compat.era": "the era is an observation made on every run (modern-only, dual, legacy or unknown)",
}

// notCompat are catalogue rules compat has no check for: only the
// traffic checker (sessions check) judges them, and
// internal/traffic/testdata has their cases.
var notCompat = map[string]string{
	"transport.server_request":      "a modern server's JSON-RPC request is judged in recorded traffic; compat's client answers what arrives and does not judge it",
	"cache.hints_on_input_required": "compat judges hints on complete list results only; an input_required result is seen in traffic",
	"cache.stale_refetch":           "it judges a client that fetches again within ttlMs; in compat mcpward is the client, so only recorded traffic shows it",
}

// cannotFire are rules whose case scripts the problem but whose compat
// check cannot see it yet, with why. Their cases run and must not trigger
// the rule; the day they do, the entry must go.
var cannotFire = map[string]string{}

// Every rule compat can report has a case: the conformance catalogue, and
// the traffic rules compat judges too.
func TestEveryCompatRuleHasACase(t *testing.T) {
	ids := []string{"message.result_type_invalid"} // judged by rules.ResultTypeProblem in both engines
	for _, r := range rules.Conformance() {
		ids = append(ids, r.ID)
	}
	for _, id := range ids {
		_, err := os.Stat(filepath.Join("testdata", "rules", id+".txtar"))
		_, skip := notCompat[id]
		switch {
		case err != nil && !skip:
			t.Errorf("rule %s has no testdata/rules/%s.txtar", id, id)
		case err == nil && skip:
			t.Errorf("rule %s has a case: take it off notCompat", id)
		}
	}
	for id := range notCompat {
		if _, ok := rules.Lookup(id); !ok {
			t.Errorf("exempt rule %s is not catalogued", id)
		}
	}
}

// ruleFindings renders the findings of one rule, as
// the goldens do: class, id, subject, profile, and whether there is
// evidence. Messages are left out so that rewording does not churn.
func ruleFindings(r *Report, id string) string {
	var b strings.Builder
	for _, f := range r.Findings() {
		if f.RuleID != id {
			continue
		}
		ev := ""
		if f.Evidence != nil {
			ev = " +evidence"
		}
		fmt.Fprintf(&b, "%s %s %s %s%s\n", f.Class, f.RuleID, f.Subject, f.Profile, ev)
		if id == "compat.era" {
			// The one finding every run has: its message is the verdict.
			fmt.Fprintf(&b, "  %s\n", f.Message)
		}
	}
	return b.String()
}

var (
	runMu    sync.Mutex
	runCache = map[string]*sharedRun{}
)

type sharedRun struct {
	once sync.Once
	rep  *Report
}

// ruleRun runs compat as a run section says. Runs are shared between
// cases with the same section and script (one compat run per fixture,
// not per rule).
func ruleRun(t *testing.T, section, script []byte) *Report {
	t.Helper()
	key := string(section) + "\x00" + string(script)
	runMu.Lock()
	sr, ok := runCache[key]
	if !ok {
		sr = &sharedRun{}
		runCache[key] = sr
	}
	runMu.Unlock()
	sr.once.Do(func() { sr.rep = runSection(t, section, script) })
	if sr.rep == nil {
		t.Fatalf("the run failed (see the first case that ran it):\n%s", section)
	}
	return sr.rep
}

func runSection(t *testing.T, section, script []byte) *Report {
	t.Helper()
	var name, tr string
	var profileNames []string
	var custom []rules.Profile
	for _, line := range strings.Split(strings.TrimSpace(string(section)), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "fixture":
			name, tr = f[1], f[2]
		case len(f) == 2 && f[0] == "profiles":
			profileNames = strings.Split(f[1], ",")
		case len(f) >= 3 && f[0] == "profile":
			p, err := rules.ParseProfile(f[1], []byte(strings.Join(f[2:], " ")))
			if err != nil {
				t.Fatalf("run line %q: %v", line, err)
			}
			custom = append(custom, p)
		default:
			t.Fatalf("bad run line %q", line)
		}
	}
	if name == "" || tr != "http" && tr != "stdio" {
		t.Fatalf("run section %q: want fixture NAME http|stdio", section)
	}
	var s *connect.Session
	switch {
	case len(script) > 0 && tr == "stdio":
		s = connectStdioScripted(t, name, script)
	case len(script) > 0:
		s = connectScripted(t, name, script)
	default:
		s = connectFixture(t, name, tr == "http")
	}
	opts := &Options{Probes: fixtureProbes(t, name)}
	if profileNames != nil {
		opts.Profiles = profiles(t, profileNames...)
	}
	opts.Profiles = append(opts.Profiles, custom...)
	rep, err := Run(context.Background(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// A scriptOverride answers matching requests in place of the fixture, or
// edits the fixture's answer. Unmatched requests reach the fixture.
type scriptOverride struct {
	// HTTP is the request's HTTP method (default POST).
	HTTP string `json:"http,omitempty"`
	// Method is the JSON-RPC method of the request body ("" any).
	Method string `json:"method,omitempty"`
	// Header lists request headers that must have these values; "" means
	// absent, a trailing "*" matches a prefix.
	Header map[string]string `json:"header,omitempty"`
	// Contains and Lacks are strings the request body must and must not
	// contain.
	Contains []string `json:"contains,omitempty"`
	Lacks    []string `json:"lacks,omitempty"`
	// From and Until bound the matches the override applies to (1-based,
	// counted per override; 0 means unbounded).
	From  int `json:"from,omitempty"`
	Until int `json:"until,omitempty"`

	// Status and Body (JSON) or Text make a canned answer ("$ID" in Body
	// stands for the request's id). Without Body, the fixture answers and SetHeader and
	// Result edit its answer: Result's members replace the result's (null
	// removes one).
	Status    int               `json:"status,omitempty"`
	Body      json.RawMessage   `json:"body,omitempty"`
	Text      string            `json:"text,omitempty"`
	SetHeader map[string]string `json:"setHeader,omitempty"`
	Result    map[string]any    `json:"result,omitempty"`

	n int
}

// connectScripted serves a fixture's HTTP framing behind the script's
// overrides in-process (transport.HandlerRoundTripper, no socket) and
// connects to it.
func connectScripted(t *testing.T, name string, script []byte) *connect.Session {
	t.Helper()
	var ovs []*scriptOverride
	if err := json.Unmarshal(script, &ovs); err != nil {
		t.Fatalf("script: %v", err)
	}
	fx, err := fixture.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	next := fx.HTTPHandler()
	var mu sync.Mutex
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		mu.Lock()
		var ov *scriptOverride
		for _, o := range ovs {
			if o.matches(r, msg.Method, body) {
				o.n++
				if o.n >= max(o.From, 1) && (o.Until == 0 || o.n <= o.Until) {
					ov = o
					break
				}
			}
		}
		mu.Unlock()
		switch {
		case ov == nil:
			next.ServeHTTP(w, r)
		case ov.Body != nil || ov.Text != "":
			for k, v := range ov.SetHeader {
				w.Header().Set(k, v)
			}
			if w.Header().Get("Content-Type") == "" {
				w.Header().Set("Content-Type", "application/json")
			}
			id := msg.ID
			if id == nil {
				id = json.RawMessage("null")
			}
			w.WriteHeader(cmpOr(ov.Status, http.StatusOK))
			if ov.Text != "" {
				io.WriteString(w, strings.ReplaceAll(ov.Text, `"$ID"`, string(id)))
			} else {
				w.Write(bytes.ReplaceAll(ov.Body, []byte(`"$ID"`), id))
			}
		default:
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			out := rec.Body.Bytes()
			if ov.Result != nil {
				out = editResult(t, out, ov.Result)
			}
			for k, vs := range rec.Header() {
				w.Header()[k] = vs
			}
			for k, v := range ov.SetHeader {
				w.Header().Set(k, v)
			}
			w.Header().Del("Content-Length")
			w.WriteHeader(cmpOr(ov.Status, rec.Code))
			w.Write(out)
		}
	})
	spec := &connect.Spec{Name: name, URL: "http://127.0.0.1/", RoundTripper: transport.HandlerRoundTripper(h)}
	s, err := connect.Connect(context.Background(), spec, connect.Env{}, &client.Options{RequestTimeout: 5 * time.Second, DiscoverTimeout: time.Second})
	if err != nil {
		t.Fatalf("connect %s behind a script: %v", name, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func (o *scriptOverride) matches(r *http.Request, method string, body []byte) bool {
	if r.Method != cmpOr(o.HTTP, http.MethodPost) || o.Method != "" && o.Method != method {
		return false
	}
	for k, v := range o.Header {
		got := r.Header.Get(k)
		if p, ok := strings.CutSuffix(v, "*"); ok && !strings.HasPrefix(got, p) || !ok && got != v {
			return false
		}
	}
	for _, c := range o.Contains {
		if !bytes.Contains(body, []byte(c)) {
			return false
		}
	}
	for _, c := range o.Lacks {
		if bytes.Contains(body, []byte(c)) {
			return false
		}
	}
	return true
}

// editResult replaces members of a JSON-RPC response's result (a JSON
// body, or the data line of an SSE body that holds one; other events, such
// as a priming event, are kept).
func editResult(t *testing.T, body []byte, members map[string]any) []byte {
	t.Helper()
	if !bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
		lines := bytes.Split(body, []byte("\n"))
		for i, l := range lines {
			if data, ok := bytes.CutPrefix(l, []byte("data:")); ok && bytes.Contains(data, []byte(`"result"`)) {
				lines[i] = append([]byte("data: "), editResult(t, bytes.TrimSpace(data), members)...)
			}
		}
		return bytes.Join(lines, []byte("\n"))
	}
	var msg map[string]any
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatalf("script: the fixture's answer is not JSON: %s", body)
	}
	res, _ := msg["result"].(map[string]any)
	if res == nil {
		return body
	}
	for k, v := range members {
		if v == nil {
			delete(res, k)
		} else {
			res[k] = v
		}
	}
	out, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
