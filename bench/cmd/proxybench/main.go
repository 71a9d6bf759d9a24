// Command proxybench measures what the stdio shim costs: it runs an echo
// server behind (a) a bare io.Copy relay, (b) the shim without logging and
// (c) the shim with its session log, and reports per frame size the added
// round-trip latency (p50/p99), pipelined throughput relative to the bare
// relay, CPU per MB and peak RSS of the relay process, and frames lost.
//
// Usage: go run ./bench/cmd/proxybench [-quick]
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
		os.Exit(runBare())
	case "shim":
		os.Exit(runShim(os.Getenv("PROXYBENCH_LOG")))
	}
	quick := flag.Bool("quick", false, "fewer iterations")
	flag.Parse()
	if err := drive(*quick); err != nil {
		fmt.Fprintln(os.Stderr, "proxybench:", err)
		os.Exit(1)
	}
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
		MaxRSS: ru.Maxrss,
	}
	b, _ := json.Marshal(u)
	_ = os.WriteFile(os.Getenv("PROXYBENCH_USAGE"), b, 0o600)
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
		lg = proxy.NewLog(f, &proxy.LogOptions{Session: "bench", Label: "echo"})
		rec = lg
	}
	st, err := proxy.RunStdio(context.Background(), &proxy.StdioOptions{
		Command: []string{exe}, Env: append(os.Environ(), roleEnv+"=echo"),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Recorder: rec,
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

// relay is one running relay process.
type relay struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Reader
	usageF  string
	logPath string
}

func startRelay(kind, dir string) (*relay, error) {
	exe, _ := os.Executable()
	r := &relay{usageF: filepath.Join(dir, fmt.Sprintf("usage-%d.json", time.Now().UnixNano()))}
	env := append(os.Environ(), "PROXYBENCH_USAGE="+r.usageF)
	switch kind {
	case "bare":
		env = append(env, roleEnv+"=bare")
	case "shim":
		env = append(env, roleEnv+"=shim")
	case "shim+log":
		r.logPath = filepath.Join(dir, fmt.Sprintf("log-%d.jsonl", time.Now().UnixNano()))
		env = append(env, roleEnv+"=shim", "PROXYBENCH_LOG="+r.logPath)
	}
	r.cmd = exec.Command(exe)
	r.cmd.Env = env
	r.cmd.Stderr = os.Stderr
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

func drive(quick bool) error {
	dir, err := os.MkdirTemp("", "proxybench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	scale := 1
	if quick {
		scale = 4
	}
	loads := []workload{
		{"100 B", frame(100), 5000 / scale, 200000 / scale},
		{"10 KB", frame(10 << 10), 2000 / scale, 20000 / scale},
		{"1 MB", frame(1 << 20), 100 / scale, 256 / scale},
		{"8 MB", frame(8 << 20), 20 / scale, 32 / scale},
		{"tools/list 5000", toolsList(), 100 / scale, 200 / scale},
	}
	kinds := []string{"bare", "shim", "shim+log"}
	type result struct {
		p50, p99   time.Duration
		mbps       float64
		cpuPerMB   time.Duration
		rssKiB     int64
		lost       int64
		trafficMiB float64
	}
	results := map[string]map[string]result{}
	for _, w := range loads {
		results[w.name] = map[string]result{}
		for _, k := range kinds {
			// Latency: one frame in flight.
			r, err := startRelay(k, dir)
			if err != nil {
				return err
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
					return err
				}
				if err := <-werr; err != nil {
					return err
				}
				lat = append(lat, time.Since(t0))
			}
			if _, err := r.stop(); err != nil {
				return fmt.Errorf("%s %s: %w", k, w.name, err)
			}
			slices.Sort(lat)
			res := result{p50: lat[len(lat)/2], p99: lat[len(lat)*99/100]}

			// Throughput: frames sent back to back while reading.
			r, err = startRelay(k, dir)
			if err != nil {
				return err
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
				return err
			}
			el := time.Since(t0)
			if err := <-errc; err != nil {
				return err
			}
			u, err := r.stop()
			if err != nil {
				return fmt.Errorf("%s %s: %w", k, w.name, err)
			}
			mib := float64(total) / (1 << 20)
			res.mbps = mib / el.Seconds()
			res.cpuPerMB = time.Duration(float64(u.CPU) / mib)
			res.rssKiB = u.MaxRSS
			res.trafficMiB = mib
			if r.logPath != "" {
				n, err := countFrames(r.logPath)
				if err != nil {
					return err
				}
				res.lost = 2*int64(w.pipelined) - n
				os.Remove(r.logPath)
			}
			results[w.name][k] = res
			fmt.Fprintf(os.Stderr, "%-16s %-9s p50 %-10v p99 %-10v %8.1f MiB/s  cpu/MiB %-9v rss %6d KiB  lost %d\n",
				w.name, k, res.p50, res.p99, res.mbps, res.cpuPerMB.Round(time.Microsecond), res.rssKiB, res.lost)
		}
	}
	// RSS at two traffic volumes (1 MB frames, with logging).
	var rss [2]int64
	for i, n := range []int{64, 512} {
		r, err := startRelay("shim+log", dir)
		if err != nil {
			return err
		}
		f := frame(1 << 20)
		go func() {
			for range n {
				if _, err := r.in.Write(f); err != nil {
					return
				}
			}
		}()
		if _, err := io.CopyN(io.Discard, r.out, int64(len(f))*int64(n)); err != nil {
			return err
		}
		u, err := r.stop()
		if err != nil {
			return err
		}
		rss[i] = u.MaxRSS
		os.Remove(r.logPath)
	}

	fmt.Println("| frames | relay | p50 RTT | added p50 | p99 RTT | added p99 | throughput | × bare | CPU per MiB | peak RSS | lost |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, w := range loads {
		bare := results[w.name]["bare"]
		for _, k := range kinds {
			res := results[w.name][k]
			lost := "–"
			if k == "shim+log" {
				lost = strconv.FormatInt(res.lost, 10)
			}
			fmt.Printf("| %s | %s | %v | %v | %v | %v | %.0f MiB/s | %.2f | %v | %d MiB | %s |\n",
				w.name, k, rnd(res.p50), rnd(res.p50-bare.p50), rnd(res.p99), rnd(res.p99-bare.p99),
				res.mbps, res.mbps/bare.mbps, rnd(res.cpuPerMB), res.rssKiB>>10, lost)
		}
	}
	fmt.Printf("\nPeak RSS of the logging shim, 1 MB frames: %d MiB after 64 MiB of traffic, %d MiB after 512 MiB.\n", rss[0]>>10, rss[1]>>10)
	return nil
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
