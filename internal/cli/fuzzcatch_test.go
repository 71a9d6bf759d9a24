package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/testenv"
)

// The planted bugs of internal/fixture (fuzzbug-*, issue 29 item 5) and
// what `mcpward fuzz` must find on each: its class's rule on the planted
// fixture, nothing at all on the -fixed twin.

// fuzzCatchSeed and fuzzCatchCases are the fixed run: 70 cases are every
// fixed case of the plan of a fuzzbug fixture (json 14, rpc 6, id 15,
// method 5, notification 5, params 8, meta 3, batch 3, line 3, tool 8).
const (
	fuzzCatchSeed  = "1"
	fuzzCatchCases = "70"
)

// fuzzCatchWorkers is how many fuzz runs go at once: each starts a process
// or opens a connection per case, so on 2 cores more only slows each.
const fuzzCatchWorkers = 3

// fuzzRun is what one `mcpward fuzz --format json` run printed.
type fuzzRun struct {
	code  int
	rules []string // ruleId of every finding, in order
	tools map[string]bool
	// out is stdout, then stderr after a "[stderr]" line.
	out, stdout string
	took        time.Duration
	// first is the elapsedMs of each rule's first finding.
	first map[string]time.Duration
	// problems are the cases that could not be run.
	problems []string
}

// fuzzResult is the part of fuzz's JSON Result the tests read.
type fuzzResult struct {
	Violations []struct {
		RuleID  string `json:"ruleId"`
		Subject string `json:"subject"`
	} `json:"violations"`
	Evidence struct {
		Problems []string `json:"problems"`
	} `json:"evidence"`
	Fuzz struct {
		Ran      int `json:"ran"`
		Findings []struct {
			RuleID    string `json:"ruleId"`
			ElapsedMs int64  `json:"elapsedMs"`
		} `json:"findings"`
		Tools []struct {
			Name   string `json:"name"`
			Called bool   `json:"called"`
		} `json:"tools"`
	} `json:"fuzz"`
}

// runFuzz runs the built mcpward fuzz with args (the target last) and env
// added, bounded by corpusBound.
func runFuzz(t *testing.T, mw string, env []string, args ...string) fuzzRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), corpusBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, mw, append([]string{"fuzz", "--format", "json", "--fail-on", "info"}, args...)...)
	cmd.Env = append(append(os.Environ(), "MCPWARD_HOME="+t.TempDir(), "NO_COLOR=1"), env...)
	var stdout, stderr lockedBuf
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	began := time.Now()
	err := cmd.Run()
	r := fuzzRun{took: time.Since(began), tools: map[string]bool{}, first: map[string]time.Duration{}, stdout: stdout.String(), out: stdout.String() + "\n[stderr]\n" + stderr.String()}
	if ctx.Err() == context.DeadlineExceeded {
		t.Fatalf("mcpward fuzz %s: still running after %s", strings.Join(args, " "), corpusBound)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var res fuzzResult
	if err := json.Unmarshal([]byte(stdout.String()), &res); err != nil {
		if !slices.Contains(args, "--dry-run") {
			t.Fatalf("mcpward fuzz exited %d without a JSON Result: %v\n%.3000s", r.code, err, r.out)
		}
		return r
	}
	for _, v := range res.Violations {
		r.rules = append(r.rules, v.RuleID)
	}
	for _, tl := range res.Fuzz.Tools {
		r.tools[tl.Name] = tl.Called
	}
	for _, f := range res.Fuzz.Findings {
		if d := time.Duration(f.ElapsedMs) * time.Millisecond; r.first[f.RuleID] == 0 || d < r.first[f.RuleID] {
			r.first[f.RuleID] = d
		}
	}
	r.problems = res.Evidence.Problems
	return r
}

// fixtureHTTP serves a fixture over Streamable HTTP in its own process
// (`mcpward fixture serve NAME --http`, so that a crash ends what every
// later connection reaches) with env added, until the test ends; it
// returns the endpoint.
func fixtureHTTP(t *testing.T, mw, name string, env ...string) string {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(mw, "fixture", "serve", name, "--http", addr)
	cmd.Env = append(os.Environ(), env...)
	var stderr lockedBuf
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	waitListening(t, addr)
	return "http://" + addr + "/"
}

// fuzzTarget returns the target flags of a fixture on a transport: a real
// `mcpward fixture serve` subprocess either way.
func fuzzTarget(t *testing.T, mw, name, transport string, env ...string) []string {
	if transport == testenv.HTTP {
		return []string{"--url", fixtureHTTP(t, mw, name, env...)}
	}
	var flags []string
	for _, e := range env {
		flags = append(flags, "--env", e)
	}
	return append(append(flags, "--"), mw, "fixture", "serve", name)
}

// parallelRuns runs each function in its own parallel subtest, at most
// fuzzCatchWorkers at once.
func parallelRuns(t *testing.T, names []string, run func(t *testing.T, name string)) {
	sem := make(chan struct{}, fuzzCatchWorkers)
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			sem <- struct{}{}
			defer func() { <-sem }()
			run(t, n)
		})
	}
}

// TestFuzzCatchesPlantedBugs runs fuzz with a fixed seed and budget on
// every fuzzbug fixture and its twin, over stdio and over HTTP where the
// class applies: the planted fixture must give its class's rule, the twin
// no finding at all. The wall time of each run is logged (issue 29's
// target: 30 s to catch each), never asserted.
func TestFuzzCatchesPlantedBugs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs mcpward fuzz 30 times")
	}
	mw := testenv.MCPWard(t)
	classes := []struct {
		class, rule string
		// http is false where the class has no HTTP form.
		http bool
		// httpGap names a class fuzz does not catch over HTTP yet.
		httpGap string
	}{
		{"crash", "fuzz.crash", true, ""},
		{"hang", "fuzz.hang", true, ""},
		// Over HTTP fuzzbug-zombie holds every request after the bad
		// one open while its listener accepts: a zombie, and the run
		// stops there (the server behind --url is not restarted).
		{"zombie", "fuzz.zombie", true, ""},
		{"stdout", "stdio.stdout_not_clean", false, ""},
		{"parse-code", "fuzz.parse_error_code", true, ""},
		{"request-code", "fuzz.invalid_request_code", true, ""},
		{"params-code", "fuzz.invalid_params_code", true, ""},
		{"invalid-args", "fuzz.invalid_args_executed", true, ""},
	}
	type row struct{ bug, fixed fuzzRun }
	var (
		mu   sync.Mutex
		rows = map[string]*row{}
	)
	var names []string
	rule := map[string]string{}
	for _, c := range classes {
		for _, tr := range []string{testenv.Stdio, testenv.HTTP} {
			if tr == testenv.HTTP && !c.http {
				continue
			}
			for _, fixed := range []bool{false, true} {
				name := "fuzzbug-" + c.class
				if fixed {
					name += "-fixed"
				}
				names = append(names, name+"/"+tr)
				rule[name+"/"+tr] = c.rule
			}
		}
	}
	t.Run("runs", func(t *testing.T) {
		parallelRuns(t, names, func(t *testing.T, sub string) {
			name, tr, _ := strings.Cut(sub, "/")
			r := runFuzz(t, mw, nil, append([]string{"--seed", fuzzCatchSeed, "--cases", fuzzCatchCases}, fuzzTarget(t, mw, name, tr)...)...)
			key := strings.TrimSuffix(name, "-fixed") + "/" + tr
			mu.Lock()
			if rows[key] == nil {
				rows[key] = &row{}
			}
			if strings.HasSuffix(name, "-fixed") {
				rows[key].fixed = r
			} else {
				rows[key].bug = r
			}
			mu.Unlock()
			want := rule[sub]
			switch {
			case strings.HasSuffix(name, "-fixed") && (len(r.rules) > 0 || r.code != 0):
				t.Errorf("%s over %s: the twin has findings %v (exit %d); want none\n%.4000s", name, tr, r.rules, r.code, r.out)
			case !strings.HasSuffix(name, "-fixed") && !slices.Contains(r.rules, want):
				t.Errorf("%s over %s: no %s finding (got %v, exit %d)\n%.4000s", name, tr, want, r.rules, r.code, r.out)
			}
		})
	})
	var table []string
	for _, c := range classes {
		for _, tr := range []string{testenv.Stdio, testenv.HTTP} {
			r := rows["fuzzbug-"+c.class+"/"+tr]
			switch {
			case r == nil && tr == testenv.HTTP && c.httpGap != "":
				table = append(table, fmt.Sprintf("%-13s %-5s not caught: %s", c.class, tr, c.httpGap))
			case r == nil:
				continue
			default:
				table = append(table, fmt.Sprintf("%-13s %-5s %-27s first finding after %5.1fs, run %5.1fs (exit %d, %d problems) · twin %5.1fs, %d findings (exit %d)",
					c.class, tr, c.rule, r.bug.first[c.rule].Seconds(), r.bug.took.Seconds(), r.bug.code, len(r.bug.problems), r.fixed.took.Seconds(), len(r.fixed.rules), r.fixed.code))
				for _, p := range r.bug.problems {
					table = append(table, "    problem: "+p)
				}
			}
		}
	}
	t.Logf("fuzz --seed %s --cases %s on the planted bugs:\n\t%s", fuzzCatchSeed, fuzzCatchCases, strings.Join(table, "\n\t"))
}

// TestFuzzNeverCallsGuardedTools runs fuzz on fuzz-guarded, which appends
// the name of every tool called to $MCPWARD_FIXTURE_CALL_LOG: without
// --allow-tool only word_length (read-only by both facts, closed world)
// is called, never the destructive, the unannotated, the open-world or
// the deleting-by-its-words tool; --allow-tool NAME adds exactly that one;
// --dry-run calls nothing.
func TestFuzzNeverCallsGuardedTools(t *testing.T) {
	if testing.Short() {
		t.Skip("runs mcpward fuzz")
	}
	mw := testenv.MCPWard(t)
	forbidden := []string{"purge_cache", "read_config", "fetch_url", "search_web", "clear_history"}
	type guardedRun struct {
		name, transport string
		flags           []string
		called          []string // tools that must appear in the call log
	}
	runs := []guardedRun{
		{"default/stdio", testenv.Stdio, nil, []string{"word_length"}},
		{"default/http", testenv.HTTP, nil, []string{"word_length"}},
		{"allow-fetch_url/stdio", testenv.Stdio, []string{"--allow-tool", "fetch_url"}, []string{"word_length", "fetch_url"}},
		{"dry-run/stdio", testenv.Stdio, []string{"--dry-run"}, nil},
	}
	var names []string
	for _, r := range runs {
		names = append(names, r.name)
	}
	parallelRuns(t, names, func(t *testing.T, name string) {
		run := runs[slices.IndexFunc(runs, func(r guardedRun) bool { return r.name == name })]
		logPath := filepath.Join(t.TempDir(), "calls.log")
		env := "MCPWARD_FIXTURE_CALL_LOG=" + logPath
		// 90 cases: every fixed case, with fetch_url's tool cases when it
		// is allowed.
		args := append([]string{"--seed", fuzzCatchSeed, "--cases", "90"}, run.flags...)
		r := runFuzz(t, mw, nil, append(args, fuzzTarget(t, mw, "fuzz-guarded", run.transport, env)...)...)
		counts := map[string]int{}
		if b, err := os.ReadFile(logPath); err == nil {
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var tool string
				if json.Unmarshal([]byte(line), &tool) == nil {
					counts[tool]++
				}
			}
		} else if !os.IsNotExist(err) {
			t.Fatal(err)
		}
		// The log also holds the names fuzz's params cases send on purpose
		// (an unknown tool, none, a number: "?"): no tool of the server.
		t.Logf("%s: tools/call per tool %v (exit %d, %.1fs)", name, counts, r.code, r.took.Seconds())
		for _, tool := range append([]string{"word_length"}, forbidden...) {
			want := slices.Contains(run.called, tool)
			if got := counts[tool] > 0; got != want {
				t.Errorf("%s: %s called %d times; want called=%v\n%.3000s", name, tool, counts[tool], want, r.out)
			}
			if !slices.Contains(run.flags, "--dry-run") {
				if r.tools[tool] != want {
					t.Errorf("%s: the Result says %s called=%v; want %v", name, tool, r.tools[tool], want)
				}
			}
		}
		if slices.Contains(run.flags, "--dry-run") && (r.code != 0 || !strings.Contains(r.stdout, "never called (5)")) {
			t.Errorf("%s: exit %d, want 0 and a plan that never calls 5 tools:\n%.3000s", name, r.code, r.out)
		}
		if slices.Contains(run.flags, "--allow-tool") && !strings.Contains(r.out, "warning: --allow-tool fetch_url") {
			t.Errorf("%s: no --allow-tool warning on stderr:\n%.2000s", name, r.out)
		}
	})
}
