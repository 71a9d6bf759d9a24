// Command proxybench measures what the stdio shim costs: it runs an echo
// server behind (a) a bare io.Copy relay, (b) the shim without logging and
// (c) the shim with its session log, and reports per frame size the added
// round-trip latency (p50/p99), pipelined throughput relative to the bare
// relay, CPU per MB and peak RSS of the relay process, and frames lost.
//
// Usage: go run ./bench/cmd/proxybench [-quick] [-rounds N] [-only "1 MB,8 MB"] [-rss 64,512,2048]
//
// Every process is this binary re-executed in a role (echo, bare, shim),
// so nothing else needs building. See bench/README.md.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/session"
)

const roleEnv = "PROXYBENCH_ROLE"

func main() {
	switch os.Getenv(roleEnv) {
	case "echo":
		_, _ = io.Copy(os.Stdout, os.Stdin)
		return
	case "bare":
		os.Exit(profiled(runBare))
	case "shim":
		os.Exit(profiled(func() int { return runShim(os.Getenv("PROXYBENCH_LOG")) }))
	}
	quick := flag.Bool("quick", false, "a quarter of the frames per measurement")
	rounds := flag.Int("rounds", 5, "throughput measurements per relay kind, taken in turns")
	only := flag.String("only", "", `comma-separated workloads to run (e.g. "1 MB,8 MB"); all if empty`)
	rssAt := flag.String("rss", "64,512,2048", "MiB of 1 MB frames after which to take the logging shim's peak RSS; none if empty")
	slowLog := flag.Int("slowlog", 150, "MiB/s of the slowed-down log disk of the RSS runs; 0 skips them")
	modes := flag.String("modes", "pipe,socket", "what the relay's stdin and stdout are: pipe, socket (socketpairs, as Node clients use), or both")
	kinds := flag.String("kinds", strings.Join(allKinds, ","), "relay kinds to run (bare always runs)")
	rssKind := flag.String("rsskind", "shim+log/splice", "the relay kind of the RSS runs (shim+log/splice is what the logging shim does by default on Linux; shim+log forces the copy path)")
	flag.Parse()
	var volumes []int
	for v := range strings.SplitSeq(*rssAt, ",") {
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "proxybench: -rss: %q is not a number of MiB\n", v)
			os.Exit(2)
		}
		volumes = append(volumes, n)
	}
	if *rounds < 1 {
		fmt.Fprintln(os.Stderr, "proxybench: -rounds must be at least 1")
		os.Exit(2)
	}
	c := config{quick: *quick, rounds: *rounds, only: *only, volumes: volumes, slowLog: *slowLog, rssKind: *rssKind,
		modes: strings.Split(*modes, ","), kinds: strings.Split(*kinds, ",")}
	for _, m := range c.modes {
		if m != "pipe" && m != "socket" {
			fmt.Fprintf(os.Stderr, "proxybench: -modes: %q is neither pipe nor socket\n", m)
			os.Exit(2)
		}
	}
	for _, k := range append(c.kinds, c.rssKind) {
		if !slices.Contains(allKinds, k) {
			fmt.Fprintf(os.Stderr, "proxybench: %q is not a relay kind (%s)\n", k, strings.Join(allKinds, ", "))
			os.Exit(2)
		}
	}
	if err := drive(c); err != nil {
		fmt.Fprintln(os.Stderr, "proxybench:", err)
		os.Exit(1)
	}
}

// profiled runs a relay role, with a CPU profile of it appended to the
// directory in PROXYBENCH_CPUPROFILE if set (one file per process, named
// by relay kind, workload and measurement, e.g. "shimlog-1MB-tput-1234.pprof",
// so that `go tool pprof DIR/shimlog-1MB-tput-*` merges one case's rounds).
func profiled(role func() int) int {
	dir := os.Getenv("PROXYBENCH_CPUPROFILE")
	if dir == "" {
		return role()
	}
	kind := os.Getenv(roleEnv)
	if kind == "shim" && os.Getenv("PROXYBENCH_LOG") != "" {
		kind = "shimlog"
	}
	if kind != "bare" {
		kind += os.Getenv("PROXYBENCH_RELAY") // shimlogsplice, shimcopy
	}
	name := fmt.Sprintf("%s-%s-%d.pprof", kind, os.Getenv("PROXYBENCH_CASE"), os.Getpid())
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		fmt.Fprintln(os.Stderr, "proxybench:", err)
		return 1
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "proxybench:", err)
		return 1
	}
	defer pprof.StopCPUProfile()
	return role()
}

// usage is what a relay process reports about itself at exit.
type usage struct {
	CPU    time.Duration // user + system
	MaxRSS int64         // KiB
}

func writeUsage() {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	u := usage{
		CPU:    time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		MaxRSS: peakRSS(),
	}
	b, _ := json.Marshal(u)
	_ = os.WriteFile(os.Getenv("PROXYBENCH_USAGE"), b, 0o600)
}

// peakRSS is the process's peak resident set in KiB: VmHWM, which
// belongs to the process's own memory. getrusage's ru_maxrss is not
// that: Linux carries it over an exec from the image it replaced, here
// the driver (os/exec starts children with vfork, sharing its memory
// until the exec), so every relay reported the driver's peak.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return -1
			}
			return kib
		}
	}
	return -1
}

func echoCmd() *exec.Cmd {
	exe, _ := os.Executable()
	c := exec.Command(exe)
	c.Env = append(os.Environ(), roleEnv+"=echo")
	return c
}

func runBare() int {
	c := echoCmd()
	in, _ := c.StdinPipe()
	out, _ := c.StdoutPipe()
	c.Stderr = os.Stderr
	if err := c.Start(); err != nil {
		return 1
	}
	go func() { _, _ = io.Copy(in, os.Stdin); in.Close() }()
	_, _ = io.Copy(os.Stdout, out)
	_ = c.Wait()
	writeUsage()
	return 0
}

func runShim(logPath string) int {
	exe, _ := os.Executable()
	var rec proxy.Recorder
	var lg *proxy.Log
	if logPath != "" {
		f, err := os.Create(logPath)
		if err != nil {
			return 1
		}
		defer f.Close()
		var w io.Writer = f
		if v := os.Getenv("PROXYBENCH_LOG_MIBPS"); v != "" {
			mibps, _ := strconv.Atoi(v)
			w = &slowWriter{w: f, bytesPerSec: float64(mibps) * (1 << 20), start: time.Now()}
		}
		lg = proxy.NewLog(w, &proxy.LogOptions{Session: "bench", Label: "echo"})
		rec = lg
	}
	st, err := proxy.RunStdio(context.Background(), &proxy.StdioOptions{
		Command: []string{exe}, Env: append(os.Environ(), roleEnv+"=echo"),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Recorder: rec,
		Relay: proxy.RelayMode(os.Getenv("PROXYBENCH_RELAY")),
	})
	if lg != nil {
		if err := lg.Close(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	writeUsage()
	if err != nil {
		return 1
	}
	return st.Code
}

// slowWriter is a disk that takes bytesPerSec: each write returns when
// the bytes written so far would have taken that long.
type slowWriter struct {
	w           io.Writer
	bytesPerSec float64
	start       time.Time
	n           int64
}

func (s *slowWriter) Write(b []byte) (int, error) {
	n, err := s.w.Write(b)
	s.n += int64(n)
	due := s.start.Add(time.Duration(float64(s.n) / s.bytesPerSec * float64(time.Second)))
	time.Sleep(time.Until(due))
	return n, err
}

// relay is one running relay process.
type relay struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Reader
	usageF  string
	logPath string
}

// The relay kinds: the shim's come with the relay path they are run
// with (PROXYBENCH_RELAY, proxy.StdioOptions.Relay).
var allKinds = []string{"bare", "shim", "shim+log", "shim/splice", "shim+log/splice"}

func startRelay(kind, dir string, sock bool, extraEnv ...string) (*relay, error) {
	exe, _ := os.Executable()
	r := &relay{usageF: filepath.Join(dir, fmt.Sprintf("usage-%d.json", time.Now().UnixNano()))}
	env := append(os.Environ(), "PROXYBENCH_USAGE="+r.usageF)
	base, path, _ := strings.Cut(kind, "/")
	if path == "" {
		path = string(proxy.RelayCopy)
	}
	switch base {
	case "bare":
		env = append(env, roleEnv+"=bare")
	case "shim":
		env = append(env, roleEnv+"=shim", "PROXYBENCH_RELAY="+path)
	case "shim+log":
		r.logPath = filepath.Join(dir, fmt.Sprintf("log-%d.jsonl", time.Now().UnixNano()))
		env = append(env, roleEnv+"=shim", "PROXYBENCH_RELAY="+path, "PROXYBENCH_LOG="+r.logPath)
	}
	r.cmd = exec.Command(exe)
	r.cmd.Env = append(env, extraEnv...)
	r.cmd.Stderr = os.Stderr
	if sock {
		// The relay's stdin and stdout are Unix socketpairs, as a Node or
		// Electron client spawns its servers with.
		inChild, inOurs, err := socketPair()
		if err != nil {
			return nil, err
		}
		outChild, outOurs, err := socketPair()
		if err != nil {
			return nil, err
		}
		r.cmd.Stdin, r.cmd.Stdout = inChild, outChild
		r.in, r.out = inOurs, bufio.NewReaderSize(outOurs, 1<<20)
		err = r.cmd.Start()
		inChild.Close()
		outChild.Close()
		return r, err
	}
	var err error
	if r.in, err = r.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	r.out = bufio.NewReaderSize(out, 1<<20)
	return r, r.cmd.Start()
}

// socketPair returns the two ends of a Unix stream socketpair, closed on exec.
func socketPair() (*os.File, *os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, nil, err
	}
	syscall.CloseOnExec(fds[0])
	syscall.CloseOnExec(fds[1])
	return os.NewFile(uintptr(fds[0]), "socket"), os.NewFile(uintptr(fds[1]), "socket"), nil
}

func (r *relay) stop() (usage, error) {
	r.in.Close()
	_, _ = io.Copy(io.Discard, r.out)
	if err := r.cmd.Wait(); err != nil {
		return usage{}, err
	}
	var u usage
	b, err := os.ReadFile(r.usageF)
	if err != nil {
		return u, err
	}
	return u, json.Unmarshal(b, &u)
}

// readFrame reads one echoed frame of n bytes (with its newline).
func (r *relay) readFrame(buf []byte) error {
	_, err := io.ReadFull(r.out, buf)
	return err
}

// frame returns a JSON-RPC-shaped line of about n bytes (with "\n").
func frame(n int) []byte {
	head := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`
	tail := `"}]}}`
	pad := max(n-len(head)-len(tail)-1, 0)
	return []byte(head + strings.Repeat("x", pad) + tail + "\n")
}

// toolsList is a tools/list result with 5,000 tools.
func toolsList() []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"tools":[`)
	for i := range 5000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool_%d","description":"Does thing %d with <care> & precision.","inputSchema":{"type":"object","properties":{"id":{"type":"string"},"n":{"type":"integer"}},"required":["id"]}}`, i, i)
	}
	b.WriteString("]}}\n")
	return b.Bytes()
}

type workload struct {
	name      string
	frame     []byte
	pings     int
	pipelined int // frames sent back to back
}

// config is what the flags ask for.
type config struct {
	quick   bool
	rounds  int
	only    string
	volumes []int
	slowLog int
	modes   []string // "pipe", "socket": what the relay's stdin and stdout are
	kinds   []string
	rssKind string
}

func drive(c config) error {
	dir, err := os.MkdirTemp("", "proxybench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	scale := 1
	if c.quick {
		scale = 4
	}
	loads := []workload{
		{"100 B", frame(100), 5000 / scale, 200000 / scale},
		{"10 KB", frame(10 << 10), 2000 / scale, 20000 / scale},
		{"1 MB", frame(1 << 20), 100 / scale, 256 / scale},
		{"8 MB", frame(8 << 20), 20 / scale, 32 / scale},
		{"tools/list 5000", toolsList(), 100 / scale, 200 / scale},
	}
	if c.only != "" {
		keep := strings.Split(c.only, ",")
		loads = slices.DeleteFunc(loads, func(w workload) bool { return !slices.Contains(keep, w.name) })
		if len(loads) == 0 {
			return fmt.Errorf("-only %q names no workload", c.only)
		}
	}
	kinds := c.kinds
	if !slices.Contains(kinds, "bare") {
		kinds = append([]string{"bare"}, kinds...)
	}
	type key struct{ mode, load, kind string }
	results := map[key]*result{}
	ratios := map[key][]float64{}     // × bare, one per round
	over := map[key][]time.Duration{} // CPU per MiB minus bare's, one per round
	for _, w := range loads {
		// The kinds and the modes take turns, round after round, so that a
		// change in the machine's load falls on all of them alike.
		for round := range c.rounds {
			for _, mode := range c.modes {
				sock := mode == "socket"
				var bare float64
				var bareCPU time.Duration
				for _, k := range kinds {
					kk := key{mode, w.name, k}
					res := results[kk]
					if res == nil {
						res = &result{}
						results[kk] = res
					}
					p50, p99, err := latency(k, dir, sock, w)
					if err != nil {
						return err
					}
					res.p50s, res.p99s = append(res.p50s, p50), append(res.p99s, p99)
					t, err := throughput(k, dir, sock, w)
					if err != nil {
						return err
					}
					res.rounds = append(res.rounds, t)
					if k == "bare" {
						bare, bareCPU = t.mbps, t.cpuPerMB
					} else {
						ratios[kk] = append(ratios[kk], t.mbps/bare)
						over[kk] = append(over[kk], t.cpuPerMB-bareCPU)
					}
					fmt.Fprintf(os.Stderr, "%-6s %-16s %-15s round %d  p50 %-10v p99 %-10v %8.1f MiB/s  cpu/MiB %-9v rss %6d KiB  lost %d\n",
						mode, w.name, k, round+1, rnd(p50), rnd(p99), t.mbps, t.cpuPerMB.Round(time.Microsecond), t.rssKiB, t.lost)
				}
			}
		}
	}
	// Peak RSS after growing volumes of traffic (1 MB frames, logged),
	// with the log on the disk as it is and on a disk slowed down to
	// slowLog MiB/s, which keeps the recorder's queue full.
	type rssRow struct {
		disk string
		kib  []int64
	}
	var rssRows []rssRow
	if len(c.volumes) > 0 {
		rssRows = append(rssRows, rssRow{disk: "as is"})
		if c.slowLog > 0 {
			rssRows = append(rssRows, rssRow{disk: fmt.Sprintf("slowed to %d MiB/s", c.slowLog)})
		}
	}
	for row := range rssRows {
		var env []string
		if row == 1 {
			env = []string{"PROXYBENCH_LOG_MIBPS=" + strconv.Itoa(c.slowLog)}
		}
		for _, n := range c.volumes {
			kib, err := peakRSSAfter(dir, c.rssKind, n, env)
			if err != nil {
				return err
			}
			rssRows[row].kib = append(rssRows[row].kib, kib)
			fmt.Fprintf(os.Stderr, "peak RSS, disk %s: %d KiB after %d MiB\n", rssRows[row].disk, kib, n)
		}
	}
	fmt.Printf("Medians of %d rounds; × bare and CPU over bare are the medians of the per-round ratios and differences to the bare relay of the same round and mode (range in brackets).\n\n", c.rounds)
	fmt.Println("| mode | frames | relay | p50 RTT | added p50 | p99 RTT | added p99 | throughput | × bare | CPU per MiB | CPU over bare | peak RSS | lost |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, mode := range c.modes {
		for _, w := range loads {
			bare := results[key{mode, w.name, "bare"}]
			for _, k := range kinds {
				kk := key{mode, w.name, k}
				res := results[kk]
				med := res.median()
				p50, p99 := medianOf(res.p50s), medianOf(res.p99s)
				bp50, bp99 := medianOf(bare.p50s), medianOf(bare.p99s)
				lost, ratio, cpuOver := "–", "1.00", "–"
				if k != "bare" {
					rs := slices.Clone(ratios[kk])
					slices.Sort(rs)
					ratio = fmt.Sprintf("**%.2f** [%.2f–%.2f]", rs[len(rs)/2], rs[0], rs[len(rs)-1])
					ov := slices.Clone(over[kk])
					slices.Sort(ov)
					cpuOver = fmt.Sprintf("**%v** [%v–%v]", rnd(ov[len(ov)/2]), rnd(ov[0]), rnd(ov[len(ov)-1]))
				}
				if strings.HasPrefix(k, "shim+log") {
					var total int64
					for _, t := range res.rounds {
						total += t.lost
					}
					lost = strconv.FormatInt(total, 10)
				}
				fmt.Printf("| %s | %s | %s | %v | %v | %v | %v | %.0f MiB/s | %s | %v | %s | %d MiB | %s |\n",
					mode, w.name, k, rnd(p50), rnd(p50-bp50), rnd(p99), rnd(p99-bp99),
					med.mbps, ratio, rnd(med.cpuPerMB), cpuOver, med.rssKiB>>10, lost)
			}
		}
	}
	if len(rssRows) > 0 {
		fmt.Printf("\nPeak RSS of %s after a volume of 1 MB frames (both directions logged):\n\n| log disk |", c.rssKind)
		for _, n := range c.volumes {
			fmt.Printf(" %d MiB |", n)
		}
		fmt.Printf("\n|---|%s\n", strings.Repeat("---|", len(c.volumes)))
		for _, row := range rssRows {
			fmt.Printf("| %s |", row.disk)
			for _, kib := range row.kib {
				fmt.Printf(" %d MiB |", kib>>10)
			}
			fmt.Println()
		}
	}
	return nil
}

// peakRSSAfter runs mib frames of 1 MiB through a logging shim and
// returns its peak RSS in KiB.
func peakRSSAfter(dir, kind string, mib int, env []string) (int64, error) {
	r, err := startRelay(kind, dir, false, append(env, caseEnv("1 MB", "rss"))...)
	if err != nil {
		return 0, err
	}
	f := frame(1 << 20)
	go func() {
		for range mib {
			if _, err := r.in.Write(f); err != nil {
				return
			}
		}
	}()
	if _, err := io.CopyN(io.Discard, r.out, int64(len(f))*int64(mib)); err != nil {
		return 0, err
	}
	u, err := r.stop()
	if err != nil {
		return 0, err
	}
	os.Remove(r.logPath)
	return u.MaxRSS, nil
}

// result is what one relay kind did on one workload.
type result struct {
	p50s, p99s []time.Duration // round-trip latency, one frame in flight, per round
	rounds     []run           // the throughput rounds
}

func medianOf(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// run is one throughput round.
type run struct {
	mbps     float64
	cpuPerMB time.Duration
	rssKiB   int64
	lost     int64
}

// median returns the round with the median throughput.
func (r *result) median() run {
	rs := slices.Clone(r.rounds)
	slices.SortFunc(rs, func(a, b run) int {
		switch {
		case a.mbps < b.mbps:
			return -1
		case a.mbps > b.mbps:
			return 1
		}
		return 0
	})
	return rs[len(rs)/2]
}

// latency measures round trips with one frame in flight.
func latency(kind, dir string, sock bool, w workload) (p50, p99 time.Duration, err error) {
	r, err := startRelay(kind, dir, sock, caseEnv(w.name, "rtt"))
	if err != nil {
		return 0, 0, err
	}
	buf := make([]byte, len(w.frame))
	lat := make([]time.Duration, 0, w.pings)
	for range w.pings {
		t0 := time.Now()
		werr := make(chan error, 1)
		if len(w.frame) <= 4096 {
			// Fits the pipe: write inline (a goroutine would add its own latency).
			_, err := r.in.Write(w.frame)
			werr <- err
		} else {
			go func() { _, err := r.in.Write(w.frame); werr <- err }()
		}
		if err := r.readFrame(buf); err != nil {
			return 0, 0, err
		}
		if err := <-werr; err != nil {
			return 0, 0, err
		}
		lat = append(lat, time.Since(t0))
	}
	if _, err := r.stop(); err != nil {
		return 0, 0, fmt.Errorf("%s %s: %w", kind, w.name, err)
	}
	if r.logPath != "" {
		os.Remove(r.logPath)
	}
	slices.Sort(lat)
	return lat[len(lat)/2], lat[len(lat)*99/100], nil
}

// throughput sends frames back to back while reading the echo.
func throughput(kind, dir string, sock bool, w workload) (run, error) {
	r, err := startRelay(kind, dir, sock, caseEnv(w.name, "tput"))
	if err != nil {
		return run{}, err
	}
	t0 := time.Now()
	errc := make(chan error, 1)
	go func() {
		for range w.pipelined {
			if _, err := r.in.Write(w.frame); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	total := int64(len(w.frame)) * int64(w.pipelined)
	if _, err := io.CopyN(io.Discard, r.out, total); err != nil {
		return run{}, err
	}
	el := time.Since(t0)
	if err := <-errc; err != nil {
		return run{}, err
	}
	u, err := r.stop()
	if err != nil {
		return run{}, fmt.Errorf("%s %s: %w", kind, w.name, err)
	}
	mib := float64(total) / (1 << 20)
	t := run{mbps: mib / el.Seconds(), cpuPerMB: time.Duration(float64(u.CPU) / mib), rssKiB: u.MaxRSS}
	if r.logPath != "" {
		n, err := countFrames(r.logPath)
		if err != nil {
			return run{}, err
		}
		t.lost = 2*int64(w.pipelined) - n
		os.Remove(r.logPath)
	}
	return t, nil
}

// caseEnv names the workload and measurement for a relay's CPU profile.
func caseEnv(workload, measure string) string {
	name := strings.NewReplacer(" ", "", "/", "").Replace(workload)
	return "PROXYBENCH_CASE=" + name + "-" + measure
}

func rnd(d time.Duration) time.Duration {
	switch {
	case d > 10*time.Millisecond || d < -10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	case d > 10*time.Microsecond || d < -10*time.Microsecond:
		return d.Round(100 * time.Nanosecond)
	}
	return d.Round(10 * time.Nanosecond)
}

// countFrames counts the c2s and s2c records of a log.
func countFrames(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	rd := session.NewReader(f)
	var n int64
	for {
		r, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		if r.Dir == session.ClientToServer || r.Dir == session.ServerToClient {
			n++
		}
	}
	if rd.Skipped() > 0 {
		return n, fmt.Errorf("log %s: %d bad lines", path, rd.Skipped())
	}
	return n, nil
}
