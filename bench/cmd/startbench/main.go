// Command startbench measures the start-up of the stdio shim: the time
// from spawning a stdio MCP server (through nothing, a bare relay, the
// shim, or the shim with its session log) to the first response line,
// which is what a client such as Claude Desktop waits for once per server.
//
// Usage: go run ./bench/cmd/startbench [-n 40] [-rounds 5] [-mcpward PATH] [-before PATH]
//
// Without -mcpward it builds ./cmd/mcpward as the release is built
// (CGO_ENABLED=0, -trimpath, -s -w) into a temporary directory (run it
// from the module root). -before adds the shim kinds of another
// mcpward binary (e.g. an older commit's) to the same interleaved run. The server is this binary re-executed as
// an echo server; the bare relay is this binary re-executed as an io.Copy
// relay around it. This binary imports nothing of mcpward, so its own
// start-up is a small Go program's. See bench/README.md.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

const roleEnv = "STARTBENCH_ROLE"

// request is the first frame a client sends; the echo server answers it
// with itself, so the first response line is the request's bytes.
const request = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"startbench","version":"0"}}}` + "\n"

func main() {
	switch os.Getenv(roleEnv) {
	case "echo":
		_, _ = io.Copy(os.Stdout, os.Stdin)
		return
	case "bare":
		os.Exit(runBare())
	}
	n := flag.Int("n", 40, "spawns per kind and round; the kinds take turns in a shuffled order each iteration")
	rounds := flag.Int("rounds", 5, "rounds; the table gives the median of the rounds' p50s and their range")
	bin := flag.String("mcpward", "", "the mcpward binary to measure (default: build ./cmd/mcpward)")
	before := flag.String("before", "", "another mcpward binary whose shim kinds run in the same rounds")
	only := flag.String("only", "", `comma-separated kinds to run (e.g. "bare,shim"); all if empty`)
	flag.Parse()
	if *n < 1 || *rounds < 1 {
		fmt.Fprintln(os.Stderr, "startbench: -n and -rounds must be at least 1")
		os.Exit(2)
	}
	if err := drive(*n, *rounds, *bin, *before, *only); err != nil {
		fmt.Fprintln(os.Stderr, "startbench:", err)
		os.Exit(1)
	}
}

func runBare() int {
	exe, _ := os.Executable()
	c := exec.Command(exe)
	c.Env = append(os.Environ(), roleEnv+"=echo")
	in, _ := c.StdinPipe()
	out, _ := c.StdoutPipe()
	c.Stderr = os.Stderr
	if err := c.Start(); err != nil {
		return 1
	}
	go func() { _, _ = io.Copy(in, os.Stdin); in.Close() }()
	_, _ = io.Copy(os.Stdout, out)
	_ = c.Wait()
	return 0
}

// kind is one way of starting the server: argv, and the role the first
// program plays if it is this binary.
type kind struct {
	name string
	role string
	argv []string
}

func kindsFor(exe, mcpward, before string) []kind {
	ks := []kind{
		{"direct", "echo", []string{exe}},
		{"bare", "bare", []string{exe}},
		{"shim", "echo", []string{mcpward, "proxy", "--no-trace", "--", exe}},
		{"shim+log", "echo", []string{mcpward, "--", exe}},
	}
	if before != "" {
		ks = append(ks,
			kind{"shim (before)", "echo", []string{before, "proxy", "--no-trace", "--", exe}},
			kind{"shim+log (before)", "echo", []string{before, "--", exe}})
	}
	return ks
}

// sample is one spawn: wall time to the first response line, and the CPU
// the spawned process (with the children it waited for) used in all.
type sample struct {
	first time.Duration
	cpu   time.Duration
}

func spawn(k kind, env []string) (sample, error) {
	c := exec.Command(k.argv[0], k.argv[1:]...)
	c.Env = append(env, roleEnv+"="+k.role)
	c.Stderr = os.Stderr
	in, err := c.StdinPipe()
	if err != nil {
		return sample{}, err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return sample{}, err
	}
	start := time.Now()
	if err := c.Start(); err != nil {
		return sample{}, err
	}
	if _, err := io.WriteString(in, request); err != nil {
		_ = c.Process.Kill()
		_ = c.Wait()
		return sample{}, fmt.Errorf("%s: write: %w", k.name, err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	first := time.Since(start)
	in.Close()
	if err != nil || line != request {
		_ = c.Process.Kill()
		_ = c.Wait()
		return sample{}, fmt.Errorf("%s: first response %q: %v", k.name, line, err)
	}
	_, _ = io.Copy(io.Discard, out)
	if err := c.Wait(); err != nil {
		return sample{}, fmt.Errorf("%s: %w", k.name, err)
	}
	var cpu time.Duration
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return sample{first: first, cpu: cpu}, nil
}

func drive(n, rounds int, mcpward, before, only string) error {
	tmp, err := os.MkdirTemp("", "startbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if mcpward == "" {
		mcpward = filepath.Join(tmp, "mcpward")
		// As the release is built (.goreleaser.yaml): static, stripped.
		b := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", mcpward, "./cmd/mcpward")
		b.Env = append(os.Environ(), "CGO_ENABLED=0")
		b.Stdout, b.Stderr = os.Stderr, os.Stderr
		if err := b.Run(); err != nil {
			return fmt.Errorf("build mcpward (run from the module root or give -mcpward): %w", err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	// The logging shim writes into a state directory of its own; no hub
	// runs, so the live feed finds no socket (as for most users).
	env := append(os.Environ(), "MCPWARD_HOME="+filepath.Join(tmp, "home"))
	var run []kind
	for _, k := range kindsFor(exe, mcpward, before) {
		if only == "" || slices.Contains(strings.Split(only, ","), k.name) {
			run = append(run, k)
		}
	}
	// One untimed spawn each warms the page cache.
	for _, k := range run {
		if _, err := spawn(k, env); err != nil {
			return err
		}
	}
	loadStart := loadavg()
	all := make(map[string][]sample)
	roundP50 := make(map[string][]time.Duration)
	order := slices.Clone(run)
	for range rounds {
		res := make(map[string][]time.Duration)
		for range n {
			rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			for _, k := range order {
				s, err := spawn(k, env)
				if err != nil {
					return err
				}
				all[k.name] = append(all[k.name], s)
				res[k.name] = append(res[k.name], s.first)
			}
		}
		for name, ds := range res {
			slices.Sort(ds)
			roundP50[name] = append(roundP50[name], pct(ds, 50))
		}
	}
	fmt.Printf("%d rounds of %d spawns per kind, interleaved; load average %s at the start, %s at the end\n\n", rounds, n, loadStart, loadavg())
	fmt.Println("| kind | p50 (median of rounds) [range] | p50 all | p90 all | min | CPU p50 (process tree) |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, k := range run {
		var first, cpu []time.Duration
		for _, s := range all[k.name] {
			first = append(first, s.first)
			cpu = append(cpu, s.cpu)
		}
		slices.Sort(first)
		slices.Sort(cpu)
		rp := roundP50[k.name]
		slices.Sort(rp)
		fmt.Printf("| %s | %s [%s–%s] | %s | %s | %s | %s |\n", k.name, ms(pct(rp, 50)), ms(rp[0]), ms(rp[len(rp)-1]),
			ms(pct(first, 50)), ms(pct(first, 90)), ms(first[0]), ms(pct(cpu, 50)))
	}
	return nil
}

func pct(sorted []time.Duration, p int) time.Duration {
	return sorted[(len(sorted)-1)*p/100]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/1e6) }

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
