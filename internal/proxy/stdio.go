package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpward/mcpward/internal/procgroup"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/session"
)

// DefaultGrace is how long the server gets to exit after a forwarded
// signal (or a cancelled context) before it is killed.
const DefaultGrace = 5 * time.Second

// drainGrace bounds the wait for the server's stdout and stderr to reach
// end of file after it exited: a grandchild that inherited them may keep
// them open for ever.
const drainGrace = 2 * time.Second

// StdioOptions configure RunStdio.
type StdioOptions struct {
	// Command is the server's argv; Command[0] is looked up in PATH.
	Command []string
	// Env is the server's whole environment (K=V). Only the names are
	// recorded, never the values.
	Env []string
	// Dir is the server's working directory ("" for ours); Cwd is what is
	// recorded as the working directory when Dir is empty.
	Dir, Cwd string

	// Stdin, Stdout and Stderr are the client side: the shim's own streams.
	Stdin          io.Reader
	Stdout, Stderr io.Writer

	// Recorder receives every frame; nil relays without recording.
	Recorder Recorder
	// MaxFrame caps the recorded copy of one frame (DefaultMaxFrame if 0).
	MaxFrame int
	// Signals delivers the signals to forward to the server's process
	// group ([ShimSignals]). After the first one the server has Grace to
	// exit.
	Signals <-chan os.Signal
	// Grace is the time between a forwarded signal (or ctx cancellation,
	// which sends SIGTERM) and SIGKILL; DefaultGrace if 0.
	Grace time.Duration
	// Now stamps frames; time.Now if nil.
	Now func() time.Time
	// Info is merged into the start record (e.g. the mcpward version).
	Version string
	// Relay chooses how the stdio bytes are relayed: RelayAuto (splice
	// where that beats copying, see useSplice), RelayCopy or RelaySplice.
	// The choice is made at start, per direction, and written into the
	// start record ("relay").
	Relay RelayMode
	// Subreap makes this process the reaper of the server's orphaned
	// descendants (Linux), so that one that left the process group with
	// setsid is ended with the server too. It is per process: set it only
	// where this is the process's one server (the shim).
	Subreap bool
}

// ShimSignals are the signals the shim catches and forwards to the
// server's process group: a terminal's hang-up and interrupt, and a
// polite request to stop. The shim itself stays up until the server has
// exited, so that the log gets what is still queued and an exit record.
var ShimSignals = []os.Signal{syscall.SIGHUP, os.Interrupt, syscall.SIGTERM}

// ExitStatus is how the server ended.
type ExitStatus struct {
	// Code is the server's exit code, or 128+signal number if a signal
	// killed it (the shell convention).
	Code int
	// Signal names the signal that killed the server, if one did.
	Signal string
	// Killed is set when the shim had to kill the server after Grace.
	Killed bool
}

// RunStdio starts the server and relays its stdio to the shim's streams,
// byte for byte in both directions, recording every line. It returns when
// the server has exited and its output has been relayed.
//
// When the client closes the shim's stdin, the server's stdin is closed.
// The server runs in a process group of its own: signals from
// opts.Signals are forwarded to the group; a cancelled ctx sends it
// SIGTERM. Either way the group is killed if the server has not exited
// after Grace. Once the server exited and its output was drained, what is
// left of its group is killed: no child of the server outlives it. If the
// shim itself dies, the kernel's parent-death signal (Linux) and a
// watchdog process (startReaper) kill the server and its group (from the
// server's first relayed output on at the latest). If the
// client stops reading our stdout, the server's stdin is closed too and
// its output is drained (and recorded) so that it never blocks.
//
// A server that cannot be started is a fault.Incomplete error.
func RunStdio(ctx context.Context, opts *StdioOptions) (*ExitStatus, error) {
	if len(opts.Command) == 0 {
		return nil, fault.Input(errors.New("no server command"))
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	grace := opts.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	rec := opts.Recorder

	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("server stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("server stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("server stderr pipe: %w", err)
	}
	cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
	cmd.Env = opts.Env
	cmd.Dir = opts.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = procgroup.SysProcAttr()
	// The watchdog starts beside the server; it learns the server's group
	// below, before the relays start.
	if opts.Subreap {
		_ = procgroup.Subreap()
	}
	rp := startReaper()
	defer rp.stop()
	startErr := cmd.Start()
	// The child has its copies; ours would keep the pipes open.
	inR.Close()
	outW.Close()
	errW.Close()
	cwd := opts.Dir
	if cwd == "" {
		cwd = opts.Cwd
	}
	// The held writer stands for the client's stdout here, as in its relay.
	spliceIn := useSplice(opts.Relay, inW, opts.Stdin)
	spliceOut := useSplice(opts.Relay, &heldWriter{w: opts.Stdout}, outR)
	if rec != nil {
		info := startInfo{Argv: opts.Command, Cwd: cwd, EnvNames: envNames(opts.Env), Version: opts.Version, Order: session.OrderWire,
			Relay: &relayInfo{C2S: pathName(spliceIn), S2C: pathName(spliceOut), Stderr: PathCopy}}
		if lr, ok := rec.(logRecorder); ok {
			// What happens when the log's disk cannot keep up.
			info.QueueBytes, info.WhenFull = lr.sessionLog().opts.QueueBytes, whenFullWait
		}
		if startErr == nil {
			info.PID = cmd.Process.Pid
		}
		rec.Record(metaRecord(now(), session.Stdio, session.KindStart, info, ""))
	}
	if startErr != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		if rec != nil {
			rec.Record(metaRecord(now(), session.Stdio, session.KindExit, exitInfo{Code: -1}, "start: "+startErr.Error()))
		}
		return nil, fault.Incomplete(fmt.Errorf("start server %s: %w", opts.Command[0], startErr))
	}

	// The server's output waits for the watchdog's process: once the
	// client has seen the server speak, the server's children are covered.
	rp.watch(cmd.Process.Pid)

	var closeIn sync.Once
	closeStdin := func() { closeIn.Do(func() { inW.Close() }) }

	relay := func(dst io.Writer, src io.Reader, dir session.Direction, splice, keep bool, onErr func(error)) RelayResult {
		return Relay(dst, src, &RelayOptions{
			Dir: dir, Transport: session.Stdio, Recorder: rec, MaxFrame: opts.MaxFrame,
			Now: now, KeepReading: keep, OnWriteError: onErr, Splice: splice,
		})
	}
	go func() {
		// Client → server. Ends when the client closes our stdin (the
		// server then sees EOF) or the server stops reading. It is not
		// waited for: our stdin may stay open after the server is gone.
		relay(inW, opts.Stdin, session.ClientToServer, spliceIn, false, nil)
		closeStdin()
	}()
	var outputs sync.WaitGroup
	outputs.Add(2)
	go func() {
		defer outputs.Done()
		// Server → client. If the client went away, tell the server by
		// closing its stdin, and keep draining so it never blocks.
		relay(&heldWriter{w: opts.Stdout, gate: rp.ready()}, outR, session.ServerToClient, spliceOut, true, func(error) { closeStdin() })
	}()
	go func() {
		defer outputs.Done()
		relay(&heldWriter{w: opts.Stderr, gate: rp.ready()}, errR, session.Stderr, false, true, nil)
	}()

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var (
		killTimer <-chan time.Time
		killed    bool
		waitErr   error
	)
	arm := func() {
		if killTimer == nil {
			killTimer = time.After(grace)
		}
	}
	ctxDone := ctx.Done()
loop:
	for {
		select {
		case sig := <-opts.Signals:
			_ = procgroup.Signal(cmd.Process, sig)
			arm()
		case <-ctxDone:
			ctxDone = nil
			_ = procgroup.Signal(cmd.Process, syscall.SIGTERM)
			arm()
		case <-killTimer:
			killed = true
			_ = procgroup.Kill(cmd.Process)
		case waitErr = <-exited:
			break loop
		}
	}
	// The server is gone; its output may still be in the pipes.
	drained := make(chan struct{})
	go func() { outputs.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(drainGrace):
		// A grandchild holds the pipes open; stop reading them.
		outR.Close()
		errR.Close()
		<-drained
	}
	outR.Close()
	errR.Close()
	closeStdin()
	// Children the server left behind (they had their chance to end with
	// it, and to hand over their output).
	_ = procgroup.Kill(cmd.Process)
	if opts.Subreap {
		// And those that left the group (setsid) and were adopted.
		procgroup.EndAdopted(rp.pid())
	}

	if cmd.ProcessState == nil {
		return nil, fmt.Errorf("wait for server: %w", waitErr)
	}
	st := exitStatus(cmd.ProcessState, killed)
	if rec != nil {
		rec.Record(metaRecord(now(), session.Stdio, session.KindExit, exitInfo{Code: st.Code, Signal: st.Signal, Killed: st.Killed}, ""))
	}
	return st, nil
}

func exitStatus(ps *os.ProcessState, killed bool) *ExitStatus {
	st := &ExitStatus{Code: ps.ExitCode(), Killed: killed}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		st.Code = 128 + int(ws.Signal())
		st.Signal = signalName(ws.Signal())
	}
	return st
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGKILL:
		return "SIGKILL"
	}
	return s.String()
}

type startInfo struct {
	Argv     []string `json:"argv,omitempty"`
	Cwd      string   `json:"cwd,omitempty"`
	EnvNames []string `json:"envNames,omitempty"`
	PID      int      `json:"pid,omitempty"`
	Target   string   `json:"target,omitempty"`
	Listen   string   `json:"listen,omitempty"`
	Version  string   `json:"mcpwardVersion,omitempty"`
	// Order says that seq order is the order of the wire (the relays
	// number a read before forwarding it).
	Order string `json:"order,omitempty"`
	// Relay names the path of each stdio direction (PathSplice, PathCopy).
	Relay *relayInfo `json:"relay,omitempty"`
	// QueueBytes bounds what the log holds between the relays and the
	// disk; WhenFull says what happens when it is full (whenFullWait).
	QueueBytes int64  `json:"queueBytes,omitempty"`
	WhenFull   string `json:"whenFull,omitempty"`
}

// relayInfo is the start record's "relay".
type relayInfo struct {
	C2S    string `json:"c2s"`
	S2C    string `json:"s2c"`
	Stderr string `json:"stderr"`
}

// whenFullWait is the start record's "whenFull": when the log's disk
// cannot keep up and its queue is full, the relays wait for room (the
// pipe runs at the disk's speed); no frame is dropped and nothing else
// slows them.
const whenFullWait = "relays wait"

func pathName(splice bool) string {
	if splice {
		return PathSplice
	}
	return PathCopy
}

type exitInfo struct {
	Code   int    `json:"code"`
	Signal string `json:"signal,omitempty"`
	Killed bool   `json:"killed,omitempty"`
}

// envNames returns the sorted variable names of env, never the values
// (they are secrets as often as not).
func envNames(env []string) []string {
	names := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		names = append(names, k)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

func metaRecord(t time.Time, tr session.Transport, kind string, info any, errText string) session.Record {
	b, _ := json.Marshal(info)
	return session.Record{Time: t, Dir: session.Meta, Transport: tr, Kind: kind, Info: b, Error: errText}
}

// A heldWriter holds the first write until gate is closed. One relay
// goroutine writes to it.
type heldWriter struct {
	w    io.Writer
	gate <-chan struct{}
	open bool
}

func (g *heldWriter) Write(p []byte) (int, error) {
	if !g.open {
		<-g.gate
		g.open = true
	}
	return g.w.Write(p)
}
