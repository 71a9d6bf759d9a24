package inspectcmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/cli/cmdtest"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/transport"
)

// Issue 16 item 6: the habits of mcp-surfaceprint users.

func TestNewCmdInspectHabitFlags(t *testing.T) {
	got, err := cmdtest.Parse(t, NewCmdInspect, "--save", "s.json", "--verbose", "uv run server.py")
	if err != nil {
		t.Fatal(err)
	}
	if got.Save != "s.json" || !got.Verbose || got.Quiet {
		t.Errorf("save %q verbose %v quiet %v", got.Save, got.Verbose, got.Quiet)
	}
	// The quoted form is taken as the command (split later, by Spec).
	if !slices.Equal(got.Target.Command, []string{"uv run server.py"}) {
		t.Errorf("command %q", got.Target.Command)
	}
	if _, err := cmdtest.Parse(t, NewCmdInspect, "-q", "-v", "--fixture", "clean@v1"); err == nil || !strings.Contains(err.Error(), "quiet") {
		t.Errorf("--quiet with --verbose: err = %v, want them refused together", err)
	}
}

// A server whose stderr asks for credentials and that exits before
// answering is "authentication required": exit 2 with that reason and a
// hint, its stderr not dumped, and --json still prints the snapshot of
// what was seen.
func TestInspectAuthRequiredCrash(t *testing.T) {
	opts, stdout, _ := testOptions(t)
	opts.JSON = true
	opts.Target.Command = []string{"sh", "-c", `read -r req; echo "Error: missing API key (set ACME_API_KEY)" >&2; exit 1`}
	err := inspectRun(context.Background(), opts)
	if !errors.Is(err, fault.ErrIncomplete) {
		t.Fatalf("err = %v, want incomplete evidence (exit 2)", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "authentication required: ") || !strings.Contains(msg, "missing API key") || strings.Contains(msg, "\n") {
		t.Errorf("message %q, want one line naming the reason and the hint", msg)
	}
	if h := fault.HintOf(err); !strings.Contains(h, "--env") {
		t.Errorf("hint %q does not say how to pass credentials", h)
	}
	if transport.StderrOf(err) != nil {
		t.Errorf("the stderr travels with the error; it should be shown with --verbose only")
	}
	s, uerr := snapshot.Unmarshal(stdout.Bytes())
	if uerr != nil {
		t.Fatalf("--json printed no snapshot: %v\n%s", uerr, stdout)
	}
	if s.Observation.Status != snapshot.StatusAuthRequired || s.SurfaceDigest != "" {
		t.Errorf("status %q digest %q, want auth_required without a digest", s.Observation.Status, s.SurfaceDigest)
	}
	if s.Observation.Target.Command != "sh" {
		t.Errorf("target %+v", s.Observation.Target)
	}
}

// A crash without an auth hint keeps its own error and stderr tail, and
// --json still prints what was seen.
func TestInspectCrashJSON(t *testing.T) {
	opts, stdout, _ := testOptions(t)
	opts.JSON = true
	opts.Target.Command = []string{"sh", "-c", `read -r req; echo "boom" >&2; exit 3`}
	err := inspectRun(context.Background(), opts)
	if !errors.Is(err, fault.ErrIncomplete) || strings.HasPrefix(err.Error(), "authentication") {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(string(transport.StderrOf(err)), "boom") {
		t.Errorf("the stderr tail is lost")
	}
	s, uerr := snapshot.Unmarshal(stdout.Bytes())
	if uerr != nil || s.Observation.Status != snapshot.StatusStartupError {
		t.Fatalf("snapshot %v, %v; want status startup_error", s, uerr)
	}
}

func TestInspectSave(t *testing.T) {
	opts, stdout, _ := testOptions(t)
	opts.Target.Fixture = "clean@v1"
	opts.Save = filepath.Join(t.TempDir(), "s.json")
	if err := inspectRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "Tools (") {
		t.Errorf("--save without --json still prints the view:\n%s", stdout)
	}
	saved, err := os.ReadFile(opts.Save)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.Unmarshal(saved); err != nil {
		t.Fatalf("saved file is no snapshot: %v", err)
	}
	// --save writes what --json prints.
	jopts, jout, _ := testOptions(t)
	jopts.Target.Fixture = "clean@v1"
	jopts.JSON = true
	if err := inspectRun(context.Background(), jopts); err != nil {
		t.Fatal(err)
	}
	if jout.String() != string(saved) {
		t.Errorf("--save and --json differ")
	}

	// A failed server still leaves its snapshot.
	fopts, _, _ := testOptions(t)
	fopts.Target.Command = []string{"sh", "-c", "exit 1"}
	fopts.Save = filepath.Join(t.TempDir(), "failed.json")
	if err := inspectRun(context.Background(), fopts); err == nil {
		t.Fatal("no error for a server that exits")
	}
	b, err := os.ReadFile(fopts.Save)
	if err != nil {
		t.Fatalf("no snapshot saved on failure: %v", err)
	}
	if s, err := snapshot.Unmarshal(b); err != nil || s.Observation.Status == snapshot.StatusOK {
		t.Errorf("saved failure snapshot %v, %v", s, err)
	}
}

// chattyServer is the clean@v1 fixture as a child process that writes a
// line to stderr before serving.
func chattyServer(t *testing.T, opts *InspectOptions) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts.Target.Command = []string{"sh", "-c", `echo "chatty: hello stderr" >&2; exec "$0"`, exe}
	opts.Target.Env = []string{"MCPWARD_TEST_SERVE=clean@v1"}
}

func TestInspectVerboseQuiet(t *testing.T) {
	for _, tt := range []struct {
		name           string
		verbose, quiet bool
		want           bool
	}{
		{"default hides stderr on success", false, false, false},
		{"verbose shows it", true, false, true},
		{"quiet hides it", false, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts, _, stderr := testOptions(t)
			chattyServer(t, opts)
			opts.Verbose, opts.Quiet = tt.verbose, tt.quiet
			if err := inspectRun(context.Background(), opts); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(stderr.String(), "chatty: hello stderr"); got != tt.want {
				t.Errorf("stderr shown = %v, want %v:\n%s", got, tt.want, stderr)
			}
			if tt.quiet && stderr.Len() != 0 {
				t.Errorf("--quiet wrote to stderr:\n%s", stderr)
			}
		})
	}
	// On failure, --quiet keeps the one-line error but not the stderr.
	opts, _, _ := testOptions(t)
	opts.Quiet = true
	opts.Target.Command = []string{"sh", "-c", `read -r req; echo "boom" >&2; exit 3`}
	err := inspectRun(context.Background(), opts)
	if !errors.Is(err, fault.ErrIncomplete) || transport.StderrOf(err) != nil {
		t.Errorf("err = %v (stderr %q), want exit 2 without the stderr", err, transport.StderrOf(err))
	}
}

func TestInspectJSONHeuristics(t *testing.T) {
	notes := func(t *testing.T, fixture string, noSignals bool) map[string][]string {
		t.Helper()
		opts, stdout, _ := testOptions(t)
		opts.Target.Fixture = fixture
		opts.JSON, opts.NoSignals = true, noSignals
		if err := inspectRun(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		s, err := snapshot.Unmarshal(stdout.Bytes())
		if err != nil {
			t.Fatalf("--json output is no snapshot: %v", err)
		}
		m := map[string][]string{}
		for _, n := range s.Observation.Notes {
			if n.Kind == "heuristic" {
				m[n.Rule] = append(m[n.Rule], n.Snippet)
			}
		}
		return m
	}
	got := notes(t, "signals", false)
	if len(got["risk.read"])+len(got["risk.write"])+len(got["risk.destructive"]) != 7 {
		t.Errorf("risk labels %v, want one per tool (7)", got)
	}
	if sigs := got["signal.prompt_injection_phrase"]; !slices.ContainsFunc(sigs, func(s string) bool { return strings.HasPrefix(s, "tool sync_notes: ") }) {
		t.Errorf("signals %v, want the prompt injection phrase of sync_notes", got)
	}
	for rule := range notes(t, "signals", true) {
		if strings.HasPrefix(rule, "signal.") {
			t.Errorf("--no-signals still gives %s", rule)
		}
	}
}
