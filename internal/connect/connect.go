// Package connect turns what a user names on the command line (--fixture
// NAME, --url URL, -- <command…>) into a connected MCP client: it starts or
// dials the transport, runs the era handshake, and falls back to the
// deprecated HTTP+SSE transport when a URL does not speak Streamable HTTP.
package connect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/transport"
)

// Spec names one server and how to reach it.
type Spec struct {
	// Name is the target's name (config key, snapshot file stem).
	Name string
	// Exactly one of Fixture, URL, Command and Serve is set.
	Fixture string
	URL     string
	Command []string
	// Serve, when set, is an in-process stdio server, started afresh for
	// each connection (Session.Fresh too) over two io.Pipes, as an embedded
	// fixture is: tests serve a fixture behind a script with it, so that
	// they need no child process and can run in a testing/synctest bubble.
	// The command line never sets it.
	Serve func(ctx context.Context, in io.Reader, out, stderr io.Writer) (int, error)
	// FixtureHTTP runs an embedded fixture's HTTP framing in-process
	// instead of its stdio framing (transport assertions need it).
	FixtureHTTP bool
	// SSE forces the legacy HTTP+SSE transport for URL.
	SSE bool

	Env         []string // K=V for stdio children
	Cwd         string
	Home        string
	IsolateHome bool
	// Headers are user headers for HTTP, values already interpolated.
	Headers http.Header
	// RoundTripper, when set, carries a URL target's requests (record
	// --strict-net dials only the address it checked); nil: a fresh
	// transport.
	RoundTripper http.RoundTripper

	Timeout time.Duration
}

// Validate checks that exactly one way to reach the server is set.
func (s *Spec) Validate() error {
	n := 0
	for _, set := range []bool{s.Fixture != "", s.URL != "", len(s.Command) > 0, s.Serve != nil} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return errors.New("no target: name a config target, or use --fixture NAME, --url URL or -- <command…>")
	case n > 1:
		return errors.New("more than one target: use only one of --fixture, --url and -- <command…>")
	}
	if s.URL != "" {
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--url %q is not an http(s) URL", s.URL)
		}
	}
	return nil
}

// Info describes the target without secrets, for snapshots and output.
func (s *Spec) Info() snapshot.TargetInfo {
	ti := snapshot.TargetInfo{Name: s.Name, Auth: "none"}
	switch {
	case s.Fixture != "":
		ti.Transport, ti.Fixture = "fixture", s.Fixture
	case s.Serve != nil:
		ti.Transport = "fixture"
	case s.URL != "":
		ti.Transport = "http"
		if s.SSE {
			ti.Transport = "sse"
		}
		if u, err := url.Parse(s.URL); err == nil {
			u.User, u.RawQuery, u.Fragment = nil, "", ""
			ti.URL = u.String()
		}
	default:
		ti.Transport, ti.Command, ti.Args = "stdio", s.Command[0], slices.Clone(s.Command[1:])
	}
	for name := range s.Headers {
		ti.HeaderNames = append(ti.HeaderNames, http.CanonicalHeaderKey(name))
		if strings.EqualFold(name, "Authorization") {
			ti.Auth = "bearer(redacted)"
		}
	}
	slices.Sort(ti.HeaderNames)
	return ti
}

// Env is the process environment the target may use.
type Env struct {
	Environ   func() []string
	LookupEnv func(string) (string, bool)
}

// Session is a connected target.
type Session struct {
	Spec      *Spec
	Client    *client.Client
	Handshake *client.Handshake
	Conn      transport.Conn
	// Stderr returns what a stdio server wrote to stderr so far.
	Stderr func() []byte

	env   Env
	copts *client.Options
}

// Fresh opens a second, independent session to the same target (a new
// process for stdio, a new connection for HTTP) with the client options
// changed by edit. Checks that must not be influenced by earlier traffic
// on the same pipe (dual-era, stability across connections) use it.
func (s *Session) Fresh(ctx context.Context, edit func(*client.Options)) (*Session, error) {
	var o client.Options
	if s.copts != nil {
		o = *s.copts
	}
	if edit != nil {
		edit(&o)
	}
	spec := *s.Spec
	return Connect(ctx, &spec, s.env, &o)
}

// Close ends the session and reaps any child process.
func (s *Session) Close() error { return s.Client.Close() }

// Dial starts or reaches the target and returns an unconnected transport.
func Dial(ctx context.Context, s *Spec, env Env) (transport.Conn, func() []byte, error) {
	return dial(ctx, s, env, client.AnswerServerRequest)
}

// dial is Dial with the hook that answers the server's requests.
func dial(ctx context.Context, s *Spec, env Env, answer func(jsonrpc.Message) []byte) (transport.Conn, func() []byte, error) {
	if err := s.Validate(); err != nil {
		return nil, nil, fault.Input(err)
	}
	noStderr := func() []byte { return nil }
	switch {
	case s.Fixture != "":
		f, err := fixture.Lookup(s.Fixture)
		if err != nil {
			return nil, nil, err
		}
		if s.FixtureHTTP || f.Info().HTTPOnly {
			conn, err := transport.NewHTTP(&transport.HTTPOptions{
				URL:             "http://fixture.invalid/",
				RoundTripper:    transport.HandlerRoundTripper(f.HTTPHandler()),
				OnServerRequest: answer,
			})
			return conn, noStderr, err
		}
		if len(s.Env) > 0 {
			f = f.WithEnv(fixtureEnv(s.Env, env))
		}
		return startFixture(ctx, f.Serve, answer)
	case s.Serve != nil:
		return startFixture(ctx, s.Serve, answer)
	case s.URL != "":
		opts := &transport.HTTPOptions{URL: s.URL, Header: s.Headers, RoundTripper: s.RoundTripper, OnServerRequest: answer}
		if s.SSE {
			conn, err := transport.DialSSE(ctx, opts)
			return conn, noStderr, err
		}
		conn, err := transport.NewHTTP(opts)
		return conn, noStderr, err
	}
	var base []string
	if env.Environ != nil {
		base = env.Environ()
	}
	conn, err := transport.StartStdio(ctx, &transport.StdioOptions{
		Command:         s.Command[0],
		Args:            s.Command[1:],
		Env:             s.Env,
		BaseEnv:         base,
		Dir:             s.Cwd,
		Home:            s.Home,
		IsolateHome:     s.IsolateHome,
		OnServerRequest: answer,
	})
	if err != nil {
		return nil, nil, err
	}
	return conn, conn.Stderr, nil
}

// Connect dials the target and performs the era handshake. When a URL
// answers neither a modern request nor a Streamable HTTP initialize, it
// retries once over the deprecated HTTP+SSE transport.
func Connect(ctx context.Context, s *Spec, env Env, copts *client.Options) (*Session, error) {
	answer := client.AnswerServerRequest
	if copts != nil && copts.ServerRequest != nil {
		answer = copts.ServerRequest
	}
	conn, stderr, err := dial(ctx, s, env, answer)
	if err != nil {
		return nil, err
	}
	c := client.New(conn, copts)
	hs, err := c.Connect(ctx)
	if errors.Is(err, client.ErrTrySSE) && s.URL != "" && !s.SSE {
		c.Close()
		sse := *s
		sse.SSE = true
		conn, err = transport.DialSSE(ctx, &transport.HTTPOptions{URL: s.URL, Header: s.Headers, RoundTripper: s.RoundTripper, OnServerRequest: answer})
		if err != nil {
			return nil, fault.Incomplete(fmt.Errorf("%s answered neither Streamable HTTP nor HTTP+SSE: %w", s.URL, err))
		}
		s.SSE = true
		c = client.New(conn, copts)
		hs, err = c.Connect(ctx)
	}
	if err != nil {
		c.Close()
		return nil, withStderrHint(err, stderr)
	}
	return &Session{Spec: s, Client: c, Handshake: hs, Conn: conn, Stderr: stderr, env: env, copts: copts}, nil
}

// withStderrHint attaches what a failed server wrote to stderr, which
// usually says why it failed (a missing token, a stack trace), as a
// [*transport.StderrError]: the message stays one line, and the CLI shows
// the last lines once, under a heading.
func withStderrHint(err error, stderr func() []byte) error {
	if stderr == nil {
		return err
	}
	b := stderr()
	if strings.TrimSpace(string(b)) == "" {
		return err
	}
	return &transport.StderrError{Err: err, Stderr: b}
}

// fixtureEnv is what an in-process fixture reads: the --env values over
// mcpward's own environment, as a child process would see them.
func fixtureEnv(kvs []string, env Env) func(string) string {
	return func(k string) string {
		for i := len(kvs) - 1; i >= 0; i-- {
			if key, v, ok := strings.Cut(kvs[i], "="); ok && key == k {
				return v
			}
		}
		if env.LookupEnv != nil {
			v, _ := env.LookupEnv(k)
			return v
		}
		return os.Getenv(k)
	}
}

// startFixture runs a stdio server in-process over two pipes: an embedded
// fixture's stdio framing, or Spec.Serve.
func startFixture(ctx context.Context, serve func(context.Context, io.Reader, io.Writer, io.Writer) (int, error), answer func(jsonrpc.Message) []byte) (transport.Conn, func() []byte, error) {
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	var (
		mu     sync.Mutex
		stderr []byte
	)
	errW := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		if len(stderr) < 1<<20 {
			stderr = append(stderr, p...)
		}
		return len(p), nil
	})
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, err := serve(sctx, toServerR, fromServerW, errW)
		if err != nil {
			fromServerW.CloseWithError(err)
		} else {
			_ = code
			fromServerW.Close()
		}
		toServerR.Close()
	}()
	conn := transport.NewStream(fromServerR, toServerW, &transport.StreamOptions{
		Kind:            "fixture",
		OnServerRequest: answer,
		OnClose: func() {
			cancel()
			<-done
		},
	})
	return conn, func() []byte {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(stderr)
	}, nil
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
