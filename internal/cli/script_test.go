package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar")

func TestMain(m *testing.M) {
	testenv.NoRaceExitPause()
	testscript.Main(m, map[string]func(){
		"mcpward": func() { os.Exit(Main()) },
	})
}

// TestScript runs the end-to-end CLI scripts in testdata/script against the
// real Main, in a fresh $WORK with HOME=/no-home.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			env.Setenv("GORACE", testenv.GORACE())
			env.Setenv("MCPWARD_HOME", env.WorkDir+"/.mcpward-state")
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/.state")
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/.config")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fixture":     cmdFixture,
			"exitcode":    cmdExitcode,
			"samesurface": cmdSameSurface,
			"expandenv":   cmdExpandEnv,
		},
	})
}

// cmdFixture starts an embedded fixture's HTTP framing on a free loopback
// port for the rest of the script and exports its URL.
//
//	fixture NAME VAR   → $VAR = http://127.0.0.1:PORT/
func cmdFixture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fixture NAME VAR")
	}
	fx, err := fixture.Lookup(args[0])
	ts.Check(err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	srv := &http.Server{Handler: fx.HTTPHandler(), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	ts.Defer(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	ts.Setenv(args[1], fmt.Sprintf("http://%s/", ln.Addr()))
}

// cmdSameSurface checks that snapshot files (as printed by inspect --json
// or written by record) hold the same surface and surface digest, whatever
// transport they were observed over.
//
//	samesurface a.json b.json [c.json…]
func cmdSameSurface(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: samesurface FILE FILE [FILE…]")
	}
	type doc struct {
		Surface       json.RawMessage `json:"surface"`
		SurfaceDigest string          `json:"surfaceDigest"`
	}
	var first doc
	for i, name := range args {
		var d doc
		if err := json.Unmarshal([]byte(ts.ReadFile(name)), &d); err != nil {
			ts.Fatalf("%s: %v", name, err)
		}
		if i == 0 {
			first = d
			if d.SurfaceDigest == "" && !neg {
				ts.Fatalf("%s has no surfaceDigest (incomplete surface)", name)
			}
			continue
		}
		same := d.SurfaceDigest == first.SurfaceDigest && bytes.Equal(d.Surface, first.Surface)
		if same == neg {
			ts.Fatalf("%s vs %s: same surface = %v (digests %s, %s)", args[0], name, same, first.SurfaceDigest, d.SurfaceDigest)
		}
	}
}

// cmdExpandEnv writes a copy of a file with $VAR and ${VAR} replaced by
// the script's environment, for files that must hold a port or $WORK.
//
//	expandenv IN OUT
func cmdExpandEnv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: expandenv IN OUT")
	}
	out := os.Expand(ts.ReadFile(args[0]), ts.Getenv)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(out), 0o644))
}

// cmdExitcode runs a command and checks its exact exit code; plain '!'
// only means "non-zero", and our exit codes are a contract.
//
//	exitcode N mcpward args…
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N command args…")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("usage: exitcode N command args… (N is a number)")
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("run %s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
