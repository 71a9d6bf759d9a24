package transport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// Sentinel errors of Call, Close and the constructors. Every error this
// package returns for them also satisfies errors.Is(err,
// fault.ErrIncomplete).
var (
	// ErrTimeout: the context's deadline passed before the reply arrived.
	ErrTimeout = errors.New("timed out")
	// ErrExited: the server exited or closed its output before answering.
	// For a child process the error is an [*ExitError].
	ErrExited = errors.New("server exited")
	// ErrStart: the server process could not be started.
	ErrStart = errors.New("cannot start server")
	// ErrUnreachable: an HTTP server could not be reached (connection
	// refused, DNS, TLS).
	ErrUnreachable = errors.New("server unreachable")
	// ErrClosed: Call after Close.
	ErrClosed = errors.New("connection closed")
)

// kindError carries a one-line message and the sentinels it matches.
type kindError struct {
	msg  string
	errs []error
}

func (e *kindError) Error() string   { return e.msg }
func (e *kindError) Unwrap() []error { return e.errs }

// incomplete returns an error with message msg that matches kind,
// fault.ErrIncomplete and cause (which may be nil).
func incomplete(msg string, kind, cause error) error {
	errs := []error{kind, fault.ErrIncomplete}
	if cause != nil {
		errs = append(errs, cause)
	}
	return &kindError{msg: msg, errs: errs}
}

// An ExitError reports a child process that exited before answering.
// errors.Is(err, ErrExited) and errors.Is(err, fault.ErrIncomplete) hold.
type ExitError struct {
	// Code is the exit code, or -1 when the process was killed by a signal.
	Code int
	// Signal names the signal that killed the process, if any.
	Signal string
	// Stderr is the tail of what the process wrote to stderr.
	Stderr []byte
	// Method is the method of the unanswered request, when known.
	Method string
}

func (e *ExitError) Error() string {
	var b strings.Builder
	b.WriteString("server ")
	switch {
	case e.Signal != "":
		fmt.Fprintf(&b, "was killed by %s", e.Signal)
	default:
		fmt.Fprintf(&b, "exited with code %d", e.Code)
	}
	if e.Method != "" {
		fmt.Fprintf(&b, " before answering %s", e.Method)
	}
	// The stderr tail is not part of the one-line message: the CLI shows
	// its last lines once, under a heading (see [StderrBlock]).
	return b.String()
}

// A StderrError is err with what the server wrote to stderr, which usually
// says why it failed (a missing token, a stack trace). Its message is
// err's alone; [StderrOf] finds the text.
type StderrError struct {
	Err    error
	Stderr []byte
}

func (e *StderrError) Error() string { return e.Err.Error() }
func (e *StderrError) Unwrap() error { return e.Err }

// StderrOf returns the server stderr carried by err (a [*StderrError] or an
// [*ExitError] in its chain, the outermost first), or nil.
func StderrOf(err error) []byte {
	var se *StderrError
	if errors.As(err, &se) && len(strings.TrimSpace(string(se.Stderr))) > 0 {
		return se.Stderr
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Stderr
	}
	return nil
}

// StderrBlock renders the last max non-empty lines of a server's stderr
// under a heading, each indented and cut to 200 bytes, ending in a
// newline; "" when there is nothing to show:
//
//	server stderr (last 2 lines):
//	  Error: ACME_TOKEN is not set
//	  exiting
func StderrBlock(stderr []byte, max int) string {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(string(stderr), "\r\n", "\n"), "\n") {
		if l = strings.TrimRight(l, "\r\t "); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 || max <= 0 {
		return ""
	}
	total := len(lines)
	if total > max {
		lines = lines[total-max:]
	}
	var b strings.Builder
	switch {
	case total > len(lines):
		fmt.Fprintf(&b, "server stderr (last %d of %d lines):\n", len(lines), total)
	case total == 1:
		b.WriteString("server stderr:\n")
	default:
		fmt.Fprintf(&b, "server stderr (%d lines):\n", total)
	}
	for _, l := range lines {
		if len(l) > 200 {
			l = l[:200] + "…"
		}
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// Is reports whether target is ErrExited or fault.ErrIncomplete.
func (e *ExitError) Is(target error) bool {
	return target == ErrExited || target == fault.ErrIncomplete
}

// methodOf returns the method of a frame for messages, or "the request".
func methodOf(frame []byte) string {
	if m := jsonrpc.Decode(frame); m.Method != "" {
		return m.Method
	}
	return "the request"
}

// ctxError turns a context's end during a call into a one-line error.
func ctxError(ctx context.Context, frame []byte, start time.Time) error {
	err := ctx.Err()
	if err == nil {
		err = context.Cause(ctx)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		waited := time.Since(start)
		if d, ok := ctx.Deadline(); ok {
			waited = d.Sub(start)
		}
		waited = max(waited.Round(100*time.Millisecond), 100*time.Millisecond)
		return incomplete(fmt.Sprintf("server did not answer %s within %s", methodOf(frame), waited), ErrTimeout, err)
	}
	return incomplete(fmt.Sprintf("%s: %v", methodOf(frame), err), ErrClosed, err)
}

// netError puts a failed HTTP round trip into plain words.
func netError(u *url.URL, err error) error {
	host := u.Host
	var (
		dnsErr  *net.DNSError
		unknown x509.UnknownAuthorityError
		hostErr x509.HostnameError
		certErr *tls.CertificateVerificationError
		recErr  tls.RecordHeaderError
	)
	var why string
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		why = "connection refused (is the server running?)"
	case errors.Is(err, syscall.ECONNRESET):
		why = "connection reset by the server"
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		why = "no such host"
	case errors.As(err, &dnsErr):
		why = "DNS lookup failed: " + dnsErr.Err
	case errors.As(err, &unknown), errors.As(err, &certErr):
		why = "TLS certificate not trusted"
	case errors.As(err, &hostErr):
		why = "TLS certificate is for another host"
	case errors.As(err, &recErr):
		why = "server does not speak TLS (try http://)"
	default:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		why = err.Error()
	}
	return incomplete(fmt.Sprintf("cannot reach %s: %s", host, why), ErrUnreachable, err)
}

func faultInput(err error) error { return fault.Input(err) }
