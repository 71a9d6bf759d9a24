package proxy

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/session"
)

// shimRun runs the shim around a helper server, feeding it input (closing
// stdin afterwards unless keepOpen), and returns stdout, stderr, the status
// and the log.
type shimResult struct {
	stdout, stderr []byte
	status         *ExitStatus
	err            error
	log            []*session.Record
}

func runShim(t *testing.T, mode string, input []byte, env ...string) shimResult {
	t.Helper()
	argv, environ := helperCommand(t, mode, env...)
	inR, inW := io.Pipe()
	go func() {
		r := &chunkReader{r: rand.New(rand.NewPCG(uint64(len(input)), 9)), data: input}
		io.Copy(inW, r)
		inW.Close()
	}()
	var out, errOut, logBuf bytes.Buffer
	lg := NewLog(&logBuf, &LogOptions{Session: "S", Label: "L"})
	st, err := RunStdio(context.Background(), &StdioOptions{
		Command: argv, Env: environ, Cwd: "/work", Stdin: inR, Stdout: &out, Stderr: &errOut, Recorder: lg,
	})
	if cerr := lg.Close(); cerr != nil {
		t.Fatalf("Log.Close() = %v", cerr)
	}
	inR.Close()
	return shimResult{out.Bytes(), errOut.Bytes(), st, err, readLog(t, &logBuf)}
}

func TestShimLosslessProperty(t *testing.T) {
	for seed := range uint64(3) {
		data := randomStream(rand.New(rand.NewPCG(seed, 7)), 150, 100_000)
		res := runShim(t, "cat", data)
		if res.err != nil || res.status.Code != 0 {
			t.Fatalf("seed %d: RunStdio() = %+v, %v", seed, res.status, res.err)
		}
		if !bytes.Equal(res.stdout, data) {
			t.Fatalf("seed %d: client received %d bytes that differ from the %d sent", seed, len(res.stdout), len(data))
		}
		if !bytes.Equal(res.stderr, data) {
			t.Fatalf("seed %d: server stderr was not passed through unchanged", seed)
		}
		checkSeq(t, res.log)
		for dir, what := range map[session.Direction]string{session.ClientToServer: "c2s", session.ServerToClient: "s2c", session.Stderr: "stderr"} {
			if got := streamOf(res.log, dir); !bytes.Equal(got, data) {
				t.Fatalf("seed %d: %s frames in the log do not rebuild the stream (%d vs %d bytes)", seed, what, len(got), len(data))
			}
		}
		first, last := res.log[0], res.log[len(res.log)-1]
		if first.Kind != session.KindStart || last.Kind != session.KindExit {
			t.Errorf("seed %d: first record %q, last %q; want start and exit", seed, first.Kind, last.Kind)
		}
	}
}

func TestShimStartRecord(t *testing.T) {
	res := runShim(t, "cat", []byte("x\n"), "SECRET_TOKEN=hunter2")
	var info struct {
		Argv     []string `json:"argv"`
		Cwd      string   `json:"cwd"`
		EnvNames []string `json:"envNames"`
		PID      int      `json:"pid"`
	}
	if err := json.Unmarshal(res.log[0].Info, &info); err != nil {
		t.Fatal(err)
	}
	if info.Cwd != "/work" || info.PID == 0 || len(info.Argv) != 2 {
		t.Errorf("start info = %+v", info)
	}
	found := false
	for _, n := range info.EnvNames {
		found = found || n == "SECRET_TOKEN"
	}
	if !found {
		t.Errorf("envNames %v lack SECRET_TOKEN", info.EnvNames)
	}
	if bytes.Contains(res.log[0].Info, []byte("hunter2")) {
		t.Error("start record holds an environment value")
	}
}

func exitInfoOf(t *testing.T, recs []*session.Record) exitInfo {
	t.Helper()
	last := recs[len(recs)-1]
	if last.Kind != session.KindExit {
		t.Fatalf("last record is %q, want exit", last.Kind)
	}
	var ei exitInfo
	if err := json.Unmarshal(last.Info, &ei); err != nil {
		t.Fatal(err)
	}
	return ei
}

func TestShimClientClosesStdinServerExitsWithItsCode(t *testing.T) {
	res := runShim(t, "cat", []byte(`{"jsonrpc":"2.0","method":"x"}`+"\n"), "MCPWARD_TEST_EXIT=7")
	if res.err != nil || res.status.Code != 7 {
		t.Fatalf("RunStdio() = %+v, %v; want code 7", res.status, res.err)
	}
	if ei := exitInfoOf(t, res.log); ei.Code != 7 {
		t.Errorf("exit record code = %d, want 7", ei.Code)
	}
}

func TestShimServerCrash(t *testing.T) {
	argv, env := helperCommand(t, "crash")
	inR, inW := io.Pipe()
	defer inW.Close() // the client never closes stdin: the crash ends the run
	go inW.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize"}` + "\n"))
	var out, errOut, logBuf bytes.Buffer
	lg := NewLog(&logBuf, nil)
	st, err := RunStdio(context.Background(), &StdioOptions{Command: argv, Env: env, Stdin: inR, Stdout: &out, Stderr: &errOut, Recorder: lg})
	lg.Close()
	if err != nil || st.Code != 3 {
		t.Fatalf("RunStdio() = %+v, %v; want code 3", st, err)
	}
	recs := readLog(t, &logBuf)
	if ei := exitInfoOf(t, recs); ei.Code != 3 {
		t.Errorf("exit record code = %d, want 3", ei.Code)
	}
	if !bytes.Contains(streamOf(recs, session.Stderr), []byte("simulated crash")) {
		t.Error("the crash message on stderr was not recorded")
	}
}

// startSignalled runs a helper that prints "ready" and returns once it did.
func startSignalled(t *testing.T, mode string, opts *StdioOptions) (chan os.Signal, chan *ExitStatus) {
	t.Helper()
	argv, env := helperCommand(t, mode)
	inR, inW := io.Pipe()
	t.Cleanup(func() { inW.Close() })
	outR, outW := io.Pipe()
	sigs := make(chan os.Signal, 1)
	opts.Command, opts.Env, opts.Stdin, opts.Stdout, opts.Signals = argv, env, inR, outW, sigs
	done := make(chan *ExitStatus, 1)
	go func() {
		st, err := RunStdio(context.Background(), opts)
		if err != nil {
			t.Error(err)
		}
		outW.Close()
		done <- st
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	go io.Copy(io.Discard, outR)
	return sigs, done
}

func TestShimForwardsSIGTERM(t *testing.T) {
	var errOut bytes.Buffer
	sigs, done := startSignalled(t, "term", &StdioOptions{Stderr: &errOut})
	sigs <- syscall.SIGTERM
	st := <-done
	if st.Code != 42 || st.Killed {
		t.Errorf("status = %+v, want code 42 from the server's own SIGTERM handler", st)
	}
	if !strings.Contains(errOut.String(), "got SIGTERM") {
		t.Errorf("server stderr = %q, want it to report the signal", errOut.String())
	}
}

func TestShimKillsServerAfterGrace(t *testing.T) {
	sigs, done := startSignalled(t, "stubborn", &StdioOptions{Stderr: io.Discard, Grace: 50e6})
	sigs <- syscall.SIGTERM
	st := <-done
	if st.Code != 128+9 || st.Signal != "SIGKILL" || !st.Killed {
		t.Errorf("status = %+v, want 137 SIGKILL killed", st)
	}
}

func TestShimStartFailure(t *testing.T) {
	var logBuf bytes.Buffer
	lg := NewLog(&logBuf, nil)
	_, err := RunStdio(context.Background(), &StdioOptions{
		Command: []string{filepath.Join(t.TempDir(), "no-such-server")}, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Recorder: lg,
	})
	lg.Close()
	if !errors.Is(err, fault.ErrIncomplete) {
		t.Errorf("RunStdio() error = %v, want an incomplete fault", err)
	}
	recs := readLog(t, &logBuf)
	if len(recs) != 2 || recs[1].Kind != session.KindExit || recs[1].Error == "" {
		t.Errorf("log = %d records, want start and an exit record saying why", len(recs))
	}
}

func TestShim64MiBFrameBothWays(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB through a subprocess")
	}
	frame := bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyz"), (64<<20)/26+1)[:64<<20]
	copy(frame, `{"big":"`)
	copy(frame[len(frame)-2:], `"}`)
	data := append(frame, '\n')
	argv, env := helperCommand(t, "cat")
	var rec Recorder
	var lg *Log
	var logFile *os.File
	mem := &memRecorder{}
	if raceEnabled {
		rec = mem
	} else {
		f, err := os.Create(filepath.Join(t.TempDir(), "big.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		logFile, lg = f, NewLog(f, nil)
		rec = lg
	}
	hOut, hErr := sha256.New(), sha256.New()
	st, err := RunStdio(context.Background(), &StdioOptions{
		Command: argv, Env: env, Stdin: bytes.NewReader(data), Stdout: hOut, Stderr: hErr, Recorder: rec,
	})
	if err != nil || st.Code != 0 {
		t.Fatalf("RunStdio() = %+v, %v", st, err)
	}
	want := sha256.Sum256(data)
	if !bytes.Equal(hOut.Sum(nil), want[:]) || !bytes.Equal(hErr.Sum(nil), want[:]) {
		t.Fatal("64 MiB frame did not pass byte-exact")
	}
	var recs []*session.Record
	if raceEnabled {
		for _, r := range mem.records() {
			recs = append(recs, &r)
		}
	} else {
		if err := lg.Close(); err != nil {
			t.Fatal(err)
		}
		logFile.Seek(0, 0)
		recs = readLog(t, logFile)
		logFile.Close()
	}
	frames := 0
	for _, r := range recs {
		if r.Dir == session.Meta {
			continue
		}
		frames++
		if r.Truncated || !bytes.Equal(r.Frame, frame) || (!raceEnabled && r.RawFrame == nil) {
			t.Errorf("%s record: truncated=%v len=%d; want the whole frame spliced as JSON", r.Dir, r.Truncated, len(r.Frame))
		}
	}
	if frames != 3 {
		t.Errorf("log holds %d frame records, want 3 (c2s, s2c, stderr)", frames)
	}
}
