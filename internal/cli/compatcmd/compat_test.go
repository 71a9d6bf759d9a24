package compatcmd

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
)

func TestNewCmdCompatFlags(t *testing.T) {
	tests := []struct {
		args    []string
		check   func(*CompatOptions) bool
		wantErr string
	}{
		{args: []string{"--fixture", "clean@v1"}, check: func(o *CompatOptions) bool { return o.Format == "text" && o.Profiles == nil }},
		{args: []string{"--fixture", "clean@v1", "--json", "--profiles", "modern-full,no-roots"}, check: func(o *CompatOptions) bool {
			return o.Format == "json" && len(o.Profiles) == 2
		}},
		{args: []string{"--fixture", "clean@v1", "--reporter", "sarif"}, check: func(o *CompatOptions) bool { return o.Format == "sarif" }},
		{args: []string{"--fixture", "clean@v1", "--profiles", "nope"}, wantErr: "unknown profile"},
		{args: []string{"--fixture", "clean@v1", "--format", "pdf"}, wantErr: "unknown --format"},
		{args: []string{"--fixture", "clean@v1", "--probe", "t=[1]"}, wantErr: "JSON object"},
		{args: nil, check: func(o *CompatOptions) bool { return !o.Target.Set() && len(o.Names) == 0 }},
		{args: []string{"--fixture", "clean@v1", "--reporter", "md", "--format", "md"}, check: func(o *CompatOptions) bool { return o.Format == "md" }},
		{args: []string{"--fixture", "clean@v1", "--reporter", "md", "--format", "json"}, wantErr: "--format json and --reporter md disagree"},
		{args: []string{"--fixture", "clean@v1", "--reporter", "md", "--json"}, wantErr: "--json and --format md disagree"},
		{args: []string{"--fixture", "clean@v1", "--read-only", "--probe", "get_weather"}, wantErr: "--read-only never sends tools/call"},
		// Config targets (issue 16 item 5, issue 17 item 4).
		{args: []string{"weather", "--config", "ci/mcpward.json"}, check: func(o *CompatOptions) bool {
			return len(o.Names) == 1 && o.Names[0] == "weather" && o.ConfigPath == "ci/mcpward.json" && !o.Fleet.All
		}},
		{args: []string{"--all", "--jobs", "3", "--format", "junit"}, check: func(o *CompatOptions) bool {
			return o.Fleet.All && o.Fleet.Jobs == 3 && o.Format == "junit" && len(o.Names) == 0
		}},
		{args: []string{"b", "a"}, check: func(o *CompatOptions) bool { return len(o.Names) == 2 && o.Names[0] == "b" }},
		{args: []string{"--all", "--jobs", "0"}, wantErr: "--jobs must be at least 1, got 0"},
		{args: []string{"--all", "--jobs", "-1"}, wantErr: "--jobs must be at least 1, got -1"},
		{args: []string{"weather", "--jobs", "2"}, wantErr: "--jobs applies only to several targets"},
		{args: []string{"weather", "--fixture", "clean@v1"}, wantErr: "not both"},
		{args: []string{"--fixture", "clean@v1", "--config", "x.json"}, wantErr: "--config and a target given by flags exclude each other"},
		{args: []string{"--all", "--url", "http://127.0.0.1:1/"}, wantErr: "several targets come from the config"},
		{args: []string{"../x"}, wantErr: "is not allowed"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			var got *CompatOptions
			cmd := NewCmdCompat(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *CompatOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			_, err := cmd.ExecuteC()
			if tt.wantErr != "" {
				var fe *cmdutil.FlagError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) {
					t.Fatalf("err = %v, want usage error %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !tt.check(got) {
				t.Fatalf("err %v, opts %+v", err, got)
			}
		})
	}
}

func run(t *testing.T, fx string, httpFraming bool, format string, profiles ...string) (string, int) {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	opts := &CompatOptions{IO: ios, Now: time.Now, Version: "test", Format: format, Profiles: profiles,
		Target: cmdutil.TargetFlags{Fixture: fx, FixtureHTTP: httpFraming, Timeout: 5 * time.Second}}
	// The fixtures are in-process (stdio over io.Pipe, HTTP through
	// transport.HandlerRoundTripper): in a testing/synctest bubble the
	// timeouts compat waits out pass on the bubble's clock.
	var err error
	synctest.Test(t, func(*testing.T) { err = compatRun(context.Background(), opts) })
	code := 0
	var v *cmdutil.VerdictError
	if errors.As(err, &v) {
		code = v.Code
	} else if err != nil {
		t.Fatalf("compat %s: %v", fx, err)
	}
	return out.String(), code
}

func TestCompatRunExitCodes(t *testing.T) {
	tests := []struct {
		fx   string
		http bool
		want int
	}{
		{"clean@v1", true, 0},
		{"degrader-honest", false, 0},
		// degrade.silent is info (a fallback the spec allows, unmarked):
		// listed, never gated (compat_fixture.txtar pins the same).
		{"degrader-silent", false, 0},
		{"degrader-liar", true, 3},
		{"paginated", false, 3},
	}
	for _, tt := range tests {
		t.Run(tt.fx, func(t *testing.T) {
			out, code := run(t, tt.fx, tt.http, "text")
			if code != tt.want {
				t.Errorf("exit %d, want %d\n%s", code, tt.want, out)
			}
			if !strings.Contains(out, "era: modern-only") {
				t.Errorf("no era line:\n%s", out)
			}
		})
	}
}

func TestCompatGridAndJSON(t *testing.T) {
	out, _ := run(t, "degrader-silent", false, "text")
	for _, want := range []string{"verdicts (tool × profile):", "summarize_note", "degraded-silent", "degrade.silent", "transport.get_not_405"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	out, code := run(t, "degrader-liar", false, "json", "modern-full", "modern-minimal")
	var r result.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Command != "compat" || r.ExitCode != 3 || code != 3 || r.Summary.Violations == 0 {
		t.Errorf("result: command %s exit %d summary %+v", r.Command, r.ExitCode, r.Summary)
	}
	for _, v := range r.Violations {
		if v.Class == "violation" && v.Evidence == nil {
			t.Errorf("%s %s has no evidence", v.RuleID, v.Subject)
		}
	}
}

// The Origin check is about a header: the text evidence shows the Origin
// it sent (issue 11 item 15), and a stdio exchange shows no headers at all.
func TestCompatTextShowsRequestHeaders(t *testing.T) {
	out, code := run(t, "nonconformant-legacy", true, "text", "legacy-2025-11-25")
	if code != 3 {
		t.Fatalf("exit %d, want 3:\n%s", code, out)
	}
	_, after, ok := strings.Cut(out, "violation transport.origin_invalid_not_403")
	if !ok {
		t.Fatalf("no origin violation:\n%s", out)
	}
	var block string
	for i, line := range strings.Split(after, "\n") {
		if i > 0 && !strings.HasPrefix(line, "            ") {
			break
		}
		block += line + "\n"
	}
	if !strings.Contains(block, "headers:  POST; ") || !strings.Contains(block, "Origin: http://mcpward-evil.example") {
		t.Errorf("origin evidence does not show the Origin header sent:\n%s", block)
	}
	out, _ = run(t, "paginated", false, "text")
	if strings.Contains(out, "headers:") {
		t.Errorf("stdio evidence shows HTTP headers:\n%s", out)
	}
}
