package cli

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/iostreams"
)

// The stdio shim is started once per server by a client that waits for
// its first answer (bench/README.md, start-up). These tests pin what keeps
// its start-up short without timing anything.

// Package initialisation of a mcpward package may allocate at most this
// much: tables and regexps are built on first use (sync.OnceValue), not at
// start-up of every command. A regexp.MustCompile or a template parse at
// package level costs hundreds of allocations.
const (
	initMaxAllocs = 100
	initMaxBytes  = 48 << 10
)

// TestPackageInitIsSmall runs this test binary, which links every mcpward
// package the mcpward binary does, with GODEBUG=inittrace=1 and reads what
// each mcpward package's init allocated.
func TestPackageInitIsSmall(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no test binary path: %v", err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run %s: %v\n%s", exe, err, stderr.Bytes())
	}
	seen := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init github.com/mcpward/mcpward/internal/mcp @9.9 ms, 0.064 ms clock, 3048 bytes, 17 allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/mcpward/mcpward/") || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		seen++
		bytesN, err1 := strconv.Atoi(f[7])
		allocs, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("unreadable inittrace line %q", sc.Text())
		}
		if allocs > initMaxAllocs || bytesN > initMaxBytes {
			t.Errorf("%s: package init allocates %d bytes in %d allocations (at most %d bytes, %d allocations): build it on first use (sync.OnceValue)",
				f[1], bytesN, allocs, initMaxBytes, initMaxAllocs)
		}
	}
	if seen < 10 {
		t.Fatalf("inittrace listed %d mcpward packages; the format may have changed:\n%s", seen, stderr.Bytes())
	}
}

func TestShimTreeIsSmall(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := testFactory(ios)
	names := func(c *cobra.Command) []string {
		var out []string
		for _, sub := range c.Commands() {
			out = append(out, sub.Name())
		}
		slices.Sort(out)
		return out
	}
	for _, args := range [][]string{{"--", "server"}, {"proxy", "--label", "x", "--", "server"}, {"proxy", "--help"}} {
		if got := names(newCmdRootFor(f, rewriteShimArgs(args))); !slices.Equal(got, []string{"proxy", "version"}) {
			t.Errorf("%q: commands %q, want only proxy and version", args, got)
		}
	}
	for _, args := range [][]string{nil, {"sessions", "list"}, {"__complete", "proxy", ""}, {"help", "proxy"}} {
		if got := names(newCmdRootFor(f, args)); len(got) < 10 {
			t.Errorf("%q: commands %q, want the whole tree", args, got)
		}
	}
}

// TestShimTreeBehavesAsWholeTree runs proxy invocations that stop before
// relaying (help, usage errors) through the shim's tree and the whole tree
// and compares what they print and their exit codes.
func TestShimTreeBehavesAsWholeTree(t *testing.T) {
	run := func(whole bool, args []string) (string, string, int) {
		ios, _, stdout, stderr := iostreams.Test()
		f := testFactory(ios)
		r := newCmdRootFor(f, args)
		if whole {
			r = NewCmdRoot(f)
		}
		r.SetArgs(args)
		r.SetIn(ios.In)
		r.SetOut(ios.Out)
		r.SetErr(ios.ErrOut)
		cmd, err := r.ExecuteContextC(context.Background())
		code := exitCode(ios.ErrOut, cmd, err)
		return stdout.String(), stderr.String(), code
	}
	for _, args := range [][]string{
		{"proxy", "--help"},
		{"proxy", "-h"},
		{"proxy"},
		{"proxy", "--bogus", "--", "server"},
		{"proxy", "extra", "--", "server"},
		{"proxy", "--target", "ftp://x"},
		{"proxy", "--no-trace", "--trace-file", "x", "--", "server"},
		{"proxy", "--listen", "127.0.0.1:1", "--", "server"},
		{"proxy", "--grace", "0s", "--", "server"},
		{"proxy", "--label", "bad/label", "--", "server"},
		{"proxy", "--version"},
	} {
		wantOut, wantErr, wantCode := run(true, args)
		gotOut, gotErr, gotCode := run(false, args)
		if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode {
			t.Errorf("%q: shim tree printed\n%s%s(exit %d)\nwhole tree\n%s%s(exit %d)", args, gotOut, gotErr, gotCode, wantOut, wantErr, wantCode)
		}
	}
}
