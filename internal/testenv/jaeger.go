package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// JaegerEnv names the Jaeger v2 binary the tracing tests run. .ci/run
// builds it from the tool module in internal/testenv/jaeger (its own
// go.mod, so Jaeger's dependencies stay out of mcpward's):
//
//	go build -C internal/testenv/jaeger -o "$PWD/.ci/bin/jaeger" github.com/jaegertracing/jaeger/cmd/jaeger
//	export MCPWARD_JAEGER=$PWD/.ci/bin/jaeger
const JaegerEnv = "MCPWARD_JAEGER"

// A Jaeger is a Jaeger v2 all-in-one running on 127.0.0.1 with in-memory
// storage, for one test.
type Jaeger struct {
	// OTLP is the base URL of its OTLP/HTTP receiver (POST /v1/traces).
	OTLP string
	// Query is the base URL of its query API (/api/traces, /api/v3/...).
	Query string

	cmd    *exec.Cmd
	log    *lockedBuffer
	exited chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<20 {
		return len(p), nil
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// JaegerBinary returns the path in $MCPWARD_JAEGER, or skips (fails in
// CI, where .ci/run builds it).
func JaegerBinary(t testing.TB) string {
	t.Helper()
	p := os.Getenv(JaegerEnv)
	how := "build it with: go build -C internal/testenv/jaeger -o /tmp/jaeger github.com/jaegertracing/jaeger/cmd/jaeger && export " + JaegerEnv + "=/tmp/jaeger"
	if p == "" {
		missing(t, "Jaeger v2 ($"+JaegerEnv+" unset)", how)
	}
	if _, err := os.Stat(p); err != nil {
		missing(t, "Jaeger v2 ("+p+")", how)
	}
	return p
}

// jaegerConfig is an OpenTelemetry Collector configuration of Jaeger v2:
// an OTLP/HTTP receiver, in-memory storage, the query API, every
// listener on 127.0.0.1, its own telemetry off (no port 8888).
const jaegerConfig = `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:%d
    grpc:
      endpoint: 127.0.0.1:%d
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 10000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`

// StartJaeger starts Jaeger v2 on free loopback ports and waits until its
// receiver and query API answer; it is killed and reaped when the test
// ends. A start that loses a port race is tried again, three times in all.
func StartJaeger(t testing.TB) *Jaeger {
	t.Helper()
	bin := JaegerBinary(t)
	var lastErr error
	for range 3 {
		j, err := startJaeger(t, bin)
		if err == nil {
			return j
		}
		lastErr = err
	}
	t.Fatalf("start jaeger: %v", lastErr)
	return nil
}

func startJaeger(t testing.TB, bin string) (*Jaeger, error) {
	ports, err := freePorts(3)
	if err != nil {
		return nil, err
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, jaegerConfig, ports[0], ports[1], ports[2]), 0o644); err != nil {
		return nil, err
	}
	j := &Jaeger{
		Query:  "http://127.0.0.1:" + strconv.Itoa(ports[0]),
		OTLP:   "http://127.0.0.1:" + strconv.Itoa(ports[2]),
		log:    &lockedBuffer{},
		exited: make(chan struct{}),
	}
	j.cmd = exec.Command(bin, "--config", cfg)
	j.cmd.Dir = dir
	// Jaeger's own tracing would dial 127.0.0.1:4317, which may be
	// anyone's on a shared machine.
	j.cmd.Env = append(os.Environ(), "OTEL_SDK_DISABLED=true", "OTEL_TRACES_EXPORTER=none")
	j.cmd.Stdout, j.cmd.Stderr = j.log, j.log
	if err := j.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		_ = j.cmd.Wait()
		close(j.exited)
	}()
	stop := func() {
		_ = j.cmd.Process.Kill()
		<-j.exited
	}
	// Jaeger starts in a second or two here; a loaded CI machine may take
	// much longer, so the bound is generous. Each try is a cheap GET.
	deadline := time.Now().Add(90 * time.Second)
	client := &http.Client{Timeout: 2 * time.Second}
	for wait := 20 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		select {
		case <-j.exited:
			return nil, fmt.Errorf("jaeger exited at start:\n%s", j.log.String())
		default:
		}
		if ready(client, j.Query+"/api/services") && ready(client, j.OTLP+"/v1/traces") {
			break
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("jaeger not ready after 90s:\n%s", j.log.String())
		}
		time.Sleep(wait)
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("jaeger log:\n%s", j.log.String())
		}
	})
	return j, nil
}

// ready reports whether url answers at all: the query API with 200, the
// OTLP receiver with any status (a GET of /v1/traces is 405).
func ready(c *http.Client, url string) bool {
	resp, err := c.Get(url)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode < 500
}

func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// GetJSON decodes the JSON answer of a GET of the query API path into v;
// it returns the HTTP status (404 is how Jaeger says "no such trace").
func (j *Jaeger) GetJSON(t testing.TB, path string, v any) int {
	t.Helper()
	resp, err := http.Get(j.Query + path)
	if err != nil {
		t.Fatalf("jaeger query %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		t.Fatalf("jaeger query %s: %v", path, err)
	}
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("jaeger query %s: %v\n%s", path, err, b)
		}
	}
	return resp.StatusCode
}
