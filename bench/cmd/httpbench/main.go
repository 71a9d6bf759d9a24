// Command httpbench measures what the HTTP reverse proxy costs: an
// upstream MCP-like server answers POSTs with a JSON or an SSE response of
// a given size, and the client reaches it (a) directly, (b) through a bare
// httputil.ReverseProxy, (c) through `mcpward proxy --target` recording its
// session log and (d) the same with --no-trace. Per workload it reports
// the added latency (p50/p99, one request in flight) and the requests per
// second with several in flight, relative to the bare reverse proxy, and
// the proxy process's CPU per request.
//
// The mcpward roles run internal/proxy as `mcpward proxy --target`
// sets it up (see runProxy): bench code may not import the CLI.
//
// Usage: go run ./bench/cmd/httpbench [-quick] [-rounds N] [-only "SSE 1 KB,JSON 1 MB"]
//
// HTTPBENCH_CPUPROFILE=DIR makes every mcpward proxy process write a CPU
// profile into DIR.
//
// Every process is this binary re-executed in a role (upstream, bare,
// mcpward), on loopback addresses only. See bench/README.md.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpward/mcpward/internal/proxy"
)

const roleEnv = "HTTPBENCH_ROLE"

func main() {
	if role := os.Getenv(roleEnv); role != "" {
		os.Exit(runRole(role))
	}
	quick := flag.Bool("quick", false, "a quarter of the requests per measurement")
	rounds := flag.Int("rounds", 5, "measurements per relay kind, taken in turns; medians are reported")
	only := flag.String("only", "", `comma-separated workloads to run (e.g. "SSE 1 KB,JSON 1 MB"); all if empty`)
	flag.Parse()
	if *rounds < 1 {
		fmt.Fprintln(os.Stderr, "httpbench: -rounds must be at least 1")
		os.Exit(2)
	}
	scale := 1
	if *quick {
		scale = 4
	}
	if err := drive(os.Stdout, Config{Rounds: *rounds, Scale: scale, Only: *only}); err != nil {
		fmt.Fprintln(os.Stderr, "httpbench:", err)
		os.Exit(1)
	}
}

// runRole runs one process role and returns its exit code.
func runRole(role string) int {
	switch role {
	case "upstream":
		return serve(http.HandlerFunc(upstream))
	case "bare":
		target, err := url.Parse(os.Getenv("HTTPBENCH_TARGET"))
		if err != nil {
			return 2
		}
		// The default transport keeps 2 idle connections per host, and
		// the throughput phase has 8 requests in flight: the bare proxy
		// would dial the upstream anew for most of them.
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 4 * inFlight
		rp := &httputil.ReverseProxy{
			Transport: tr,
			Rewrite: func(r *httputil.ProxyRequest) {
				r.SetURL(target)
				r.Out.Host = r.In.Host
			},
			// FlushInterval 0: text/event-stream and bodies of unknown length
			// are flushed as they arrive, as the mcpward proxy does.
		}
		// The request body is read whole first, as the mcpward proxy does
		// with small ones. Streamed into the outbound request, it raced
		// with the response: net/http closes an unread request body when
		// the handler starts its response, the transport's write of the
		// body then failed, and it closed the upstream connection in the
		// middle of a large response ("use of closed network connection").
		return serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
			rp.ServeHTTP(w, r)
		}))
	case "mcpward", "mcpward-notrace":
		return profiled(func() int { return runProxy(role == "mcpward") })
	}
	fmt.Fprintf(os.Stderr, "httpbench: unknown role %q\n", role)
	return 2
}

// runProxy runs the proxy as `mcpward proxy --target URL --listen
// 127.0.0.1:0 --no-feed` sets it up (internal/cli/proxycmd): proxy.HTTPProxy
// with the loopback guard, served by proxy.Serve, recording to a session
// log file through proxy.Log unless trace is false (--no-trace). Only the
// packages below the CLI are imported (internal/arch forbids the CLI
// here), as proxybench runs proxy.RunStdio.
func runProxy(trace bool) int {
	target, err := url.Parse(os.Getenv("HTTPBENCH_TARGET"))
	if err != nil {
		return 2
	}
	var rec proxy.Recorder
	var lg *proxy.Log
	if trace {
		f, err := os.Create(filepath.Join(os.Getenv("HTTPBENCH_DIR"), fmt.Sprintf("session-%d.jsonl", os.Getpid())))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		lg = proxy.NewLog(f, &proxy.LogOptions{Session: fmt.Sprint(os.Getpid()), Label: "bench"})
		rec = lg
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("listening %s\n", ln.Addr())
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); cancel() }()
	h := proxy.NewHTTPProxy(&proxy.HTTPOptions{Target: target, Recorder: rec, Loopback: true})
	err = proxy.Serve(ctx, ln, h, nil)
	if lg != nil {
		if cerr := lg.Close(); cerr != nil {
			fmt.Fprintln(os.Stderr, cerr)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// profiled runs a proxy role, with a CPU profile of it written into the
// directory in HTTPBENCH_CPUPROFILE if set (one file per process).
func profiled(role func() int) int {
	dir := os.Getenv("HTTPBENCH_CPUPROFILE")
	if dir == "" {
		return role()
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("mcpward-%d.pprof", os.Getpid())))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer pprof.StopCPUProfile()
	return role()
}

// serve serves h on a loopback port, printing the address on stdout,
// until stdin closes.
func serve(h http.Handler) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("listening %s\n", ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); _ = srv.Close() }()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

var (
	bodiesMu sync.Mutex
	bodies   = map[string][]byte{}
)

// responseBody is a JSON-RPC result of about size bytes, as JSON or as one
// SSE message event.
func responseBody(sse bool, size int) []byte {
	key := fmt.Sprint(sse, size)
	bodiesMu.Lock()
	defer bodiesMu.Unlock()
	if b, ok := bodies[key]; ok {
		return b
	}
	head := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`
	tail := `"}],"isError":false}}`
	pad := max(size-len(head)-len(tail), 0)
	msg := head + strings.Repeat("x", pad) + tail
	b := []byte(msg)
	if sse {
		b = []byte("event: message\ndata: " + msg + "\n\n")
	}
	bodies[key] = b
	return b
}

// upstream answers every POST with the response the query asks for:
// ?sse=1&size=N.
func upstream(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	size, _ := strconv.Atoi(r.URL.Query().Get("size"))
	sse := r.URL.Query().Get("sse") == "1"
	b := responseBody(sse, size)
	if sse {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
	} else {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	}
	_, _ = w.Write(b)
}

// Config is one run of the harness.
type Config struct {
	Rounds int
	Scale  int    // divides the request counts (-quick: 4)
	Only   string // workloads to run, comma-separated; all if empty
	// Latency and Load override the request counts when not zero (the
	// smoke test).
	Latency, Load int
}

// A workload is one kind of response.
type workload struct {
	name string
	sse  bool
	size int
	lat  int // sequential requests for the latency percentiles
	load int // requests in the throughput measurement
}

var workloads = []workload{
	{"JSON 1 KB", false, 1 << 10, 2000, 8000},
	{"SSE 1 KB", true, 1 << 10, 2000, 8000},
	{"JSON 1 MB", false, 1 << 20, 100, 400},
	{"SSE 1 MB", true, 1 << 20, 100, 400},
}

// inFlight is the number of concurrent requests of the throughput phase.
const inFlight = 8

var kinds = []string{"direct", "bare", "mcpward", "mcpward --no-trace"}

// proc is one running server process.
type proc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	addr string
}

func start(dir, role string, env ...string) (*proc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	p := &proc{cmd: exec.Command(exe)}
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), append([]string{roleEnv + "=" + role, "HTTPBENCH_DIR=" + dir}, env...)...)
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	// Every role says "listening ADDR" on stdout; other lines are passed
	// on to stderr.
	pr, pw := io.Pipe()
	p.cmd.Stdout, p.cmd.Stderr = pw, pw
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if sent {
				fmt.Fprintf(os.Stderr, "%s: %s\n", role, line)
				continue
			}
			if a, ok := strings.CutPrefix(line, "listening "); ok {
				found <- a
				sent = true
			} else {
				fmt.Fprintf(os.Stderr, "%s: %s\n", role, line)
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case a, ok := <-found:
		if !ok {
			return nil, fmt.Errorf("%s exited before listening", role)
		}
		p.addr = a
	case <-time.After(30 * time.Second):
		p.stop()
		return nil, fmt.Errorf("%s did not listen within 30s", role)
	}
	return p, nil
}

func (p *proc) stop() {
	_ = p.in.Close()
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(os.Interrupt)
	}
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

// cpu is the process's user+system time so far, from /proc (clock ticks
// of 10 ms).
func (p *proc) cpu() time.Duration {
	if p == nil {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	_, after, ok := bytes.Cut(b, []byte(") "))
	if !ok {
		return 0
	}
	f := strings.Fields(string(after))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// sample is one measurement of one kind in one round.
type sample struct {
	p50, p99 time.Duration
	rps      float64
	cpuPer   time.Duration // proxy CPU per request (0 for direct)
}

// servers are the processes of one workload: the upstream and the three
// proxies in front of it. Each workload gets fresh ones, so no connection
// or log carries over from the one before.
type servers struct {
	up    *proc
	procs map[string]*proc
}

func startServers(dir string) (*servers, error) {
	up, err := start(dir, "upstream")
	if err != nil {
		return nil, err
	}
	sv := &servers{up: up, procs: map[string]*proc{}}
	target := "http://" + up.addr + "/mcp"
	for _, k := range []struct{ kind, role, env string }{
		{"bare", "bare", "HTTPBENCH_TARGET=" + target},
		{"mcpward", "mcpward", "HTTPBENCH_TARGET=" + target},
		{"mcpward --no-trace", "mcpward-notrace", "HTTPBENCH_TARGET=" + target},
	} {
		p, err := start(dir, k.role, k.env)
		if err != nil {
			sv.stop()
			return nil, err
		}
		sv.procs[k.kind] = p
	}
	return sv, nil
}

func (sv *servers) addr(kind string) string {
	if kind == "direct" {
		return sv.up.addr
	}
	return sv.procs[kind].addr
}

func (sv *servers) stop() {
	for _, p := range sv.procs {
		p.stop()
	}
	sv.up.stop()
}

func drive(out io.Writer, cfg Config) error {
	dir, err := os.MkdirTemp("", "httpbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var selected []workload
	for _, w := range workloads {
		if cfg.Only == "" || slices.Contains(strings.Split(cfg.Only, ","), w.name) {
			selected = append(selected, w)
		}
	}
	if len(selected) == 0 {
		return fmt.Errorf("-only %q names no workload", cfg.Only)
	}
	fmt.Fprintf(out, "| response | relay | p50 | added p50 | p99 | added p99 | req/s | × bare | proxy CPU per request |\n")
	fmt.Fprintf(out, "|---|---|---|---|---|---|---|---|---|\n")
	for _, w := range selected {
		lat, load := max(w.lat/cfg.Scale, 10), max(w.load/cfg.Scale, 2*inFlight)
		if cfg.Latency > 0 {
			lat = cfg.Latency
		}
		if cfg.Load > 0 {
			load = cfg.Load
		}
		sv, err := startServers(dir)
		if err != nil {
			return err
		}
		res := map[string][]sample{}
		for range cfg.Rounds {
			for _, k := range kinds {
				s, err := measure(sv.addr(k), sv.procs[k], w, lat, load)
				if err != nil {
					sv.stop()
					return fmt.Errorf("%s through %s: %w", w.name, k, err)
				}
				res[k] = append(res[k], s)
			}
		}
		sv.stop()
		report(out, w.name, res)
	}
	return nil
}

func client() *http.Client {
	return &http.Client{
		Timeout: 60 * time.Second,
		Transport: &http.Transport{
			MaxIdleConnsPerHost: inFlight * 2,
			DisableCompression:  true,
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		},
	}
}

const requestBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fetch","arguments":{"url":"https://example.com"}}}`

func do(c *http.Client, u string, want int) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, u, strings.NewReader(requestBody))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || int(n) != want {
		return fmt.Errorf("status %d with %d bytes, want 200 with %d", resp.StatusCode, n, want)
	}
	return nil
}

func measure(addr string, p *proc, w workload, lat, load int) (sample, error) {
	sse := "0"
	if w.sse {
		sse = "1"
	}
	u := fmt.Sprintf("http://%s/mcp?sse=%s&size=%d", addr, sse, w.size)
	want := len(responseBody(w.sse, w.size))
	c := client()
	defer c.CloseIdleConnections()
	// Warm the connections up.
	for range 3 {
		if err := do(c, u, want); err != nil {
			return sample{}, err
		}
	}
	ds := make([]time.Duration, 0, lat)
	for range lat {
		t := time.Now()
		if err := do(c, u, want); err != nil {
			return sample{}, err
		}
		ds = append(ds, time.Since(t))
	}
	slices.Sort(ds)
	var s sample
	s.p50, s.p99 = ds[len(ds)/2], ds[min(len(ds)-1, len(ds)*99/100)]

	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, inFlight)
	cpu0 := p.cpu()
	t := time.Now()
	for range inFlight {
		wg.Go(func() {
			for next.Add(1) <= int64(load) {
				if err := do(c, u, want); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	el := time.Since(t)
	close(errs)
	if err := <-errs; err != nil {
		return sample{}, err
	}
	s.rps = float64(load) / el.Seconds()
	if p != nil {
		s.cpuPer = (p.cpu() - cpu0) / time.Duration(load)
	}
	return s, nil
}

func median[T int64 | float64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func report(out io.Writer, name string, res map[string][]sample) {
	pick := func(k string, f func(sample) time.Duration) time.Duration {
		var xs []time.Duration
		for _, s := range res[k] {
			xs = append(xs, f(s))
		}
		return median(xs)
	}
	p50 := func(s sample) time.Duration { return s.p50 }
	p99 := func(s sample) time.Duration { return s.p99 }
	cpu := func(s sample) time.Duration { return s.cpuPer }
	bare50, bare99 := pick("bare", p50), pick("bare", p99)
	for _, k := range kinds {
		var rps, ratios []float64
		for i, s := range res[k] {
			rps = append(rps, s.rps)
			ratios = append(ratios, s.rps/res["bare"][i].rps)
		}
		ratio := fmt.Sprintf("%.2f", median(ratios))
		if k != "bare" && len(ratios) > 1 {
			ratio = fmt.Sprintf("**%.2f** [%.2f–%.2f]", median(ratios), slices.Min(ratios), slices.Max(ratios))
		}
		cpuCol := "–"
		if k != "direct" {
			cpuCol = round(pick(k, cpu)).String()
		}
		fmt.Fprintf(out, "| %s | %s | %v | %v | %v | %v | %.0f | %s | %s |\n", name, k,
			round(pick(k, p50)), round(pick(k, p50)-bare50), round(pick(k, p99)), round(pick(k, p99)-bare99),
			median(rps), ratio, cpuCol)
	}
}

// round keeps three significant digits of a duration.
func round(d time.Duration) time.Duration {
	switch a := max(d, -d); {
	case a >= 100*time.Millisecond:
		return d.Round(time.Millisecond)
	case a >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	case a >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case a >= 100*time.Microsecond:
		return d.Round(time.Microsecond)
	}
	return d.Round(100 * time.Nanosecond)
}
