package board

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/addrguard"
	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/compat"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/transport"
)

// A Roster lists the servers of the board. It has no headers and no probes
// on purpose: the type makes "no credentials, no tools/call" structural.
type Roster struct {
	Targets map[string]Entry `json:"targets"`
}

// An Entry is one roster server.
type Entry struct {
	URL             string     `json:"url"`
	ProtocolVersion string     `json:"protocolVersion,omitempty"`
	Notes           string     `json:"notes,omitempty"`
	ReportedAt      *time.Time `json:"reportedAt,omitempty"`
	PublishedAt     *time.Time `json:"publishedAt,omitempty"`
}

// ParseRoster decodes a roster strictly: unknown keys are errors and every
// URL must be https:// (http:// only to loopback, with allowLoopback).
func ParseRoster(b []byte, allowLoopback bool) (*Roster, error) {
	var r Roster
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("roster: %w", err)
	}
	if r.Targets == nil {
		return nil, errors.New("roster: no \"targets\" object")
	}
	for name, e := range r.Targets {
		u, err := url.Parse(e.URL)
		if err != nil || u.Host == "" || u.User != nil {
			return nil, fmt.Errorf("roster: %s: url %q is not an absolute URL without userinfo", name, e.URL)
		}
		if u.Scheme != "https" && !(allowLoopback && u.Scheme == "http") {
			return nil, fmt.Errorf("roster: %s: url must be https://", name)
		}
	}
	return &r, nil
}

// Board is one board file.
type Board struct {
	Date           string `json:"date"`
	GeneratedAt    string `json:"generatedAt"`
	MCPWardVersion string `json:"mcpwardVersion"`
	Rows           []Row  `json:"rows"`
}

// A Row is one server's observation. When not publishable, the details
// (era, versions, assertions, findings) are omitted entirely.
type Row struct {
	Server    string `json:"server"`
	URL       string `json:"url"`
	CheckedAt string `json:"checkedAt"`
	// Command reproduces the row; "" for a refused target, which the
	// board never contacts and nobody should be told to.
	Command            string               `json:"command"`
	Status             string               `json:"status"`
	StatusDetail       string               `json:"statusDetail,omitempty"`
	Notes              string               `json:"notes,omitempty"`
	Era                string               `json:"era,omitempty"`
	SupportedVersions  []string             `json:"supportedVersions,omitempty"`
	MustViolationCount int                  `json:"mustViolationCount"`
	ReportedAt         string               `json:"reportedAt,omitempty"`
	PublishedAt        string               `json:"publishedAt,omitempty"`
	Publishable        bool                 `json:"publishable"`
	Assertions         []compat.Assertion   `json:"assertions,omitempty"`
	Findings           []result.RuleFinding `json:"findings,omitempty"`
}

// Row statuses.
const (
	StatusOK           = "ok"
	StatusUnreachable  = "unreachable"
	StatusAuthRequired = "auth_required"
	// StatusRefused: the address policy refused the target (it resolves to
	// a loopback, private or otherwise non-public address). Nothing was
	// sent to it, so the row has no findings and no reproduce command.
	StatusRefused = "refused"
)

// Embargo is the time between reporting a MUST-level finding upstream and
// publishing its detail. Exactly 7 days is publishable.
const Embargo = 7 * 24 * time.Hour

// Publishable applies the disclosure policy.
func Publishable(count int, reported, published *time.Time) bool {
	if count == 0 {
		return true
	}
	return reported != nil && published != nil && published.Sub(*reported) >= Embargo
}

// Options configure RunBoard.
type Options struct {
	Now           func() time.Time
	Version       string
	Timeout       time.Duration
	AllowLoopback bool
	Resolve       addrguard.Resolver
	// Upstream, when set, carries the forwarder's requests to the target
	// instead of a transport that dials the pinned address: tests serve
	// fixtures in-process with it (transport.HandlerRoundTripper), so a
	// run fits a testing/synctest bubble and its timeouts pass on the
	// bubble's clock.
	Upstream http.RoundTripper
	// Progress receives "name: step" lines.
	Progress func(string)
}

// RunBoard checks every roster server, in name order.
func RunBoard(ctx context.Context, r *Roster, opts Options) *Board {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Resolve == nil {
		opts.Resolve = addrguard.SystemResolver
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Progress == nil {
		opts.Progress = func(string) {}
	}
	now := opts.Now().UTC()
	b := &Board{Date: now.Format("2006-01-02"), GeneratedAt: now.Format(time.RFC3339), MCPWardVersion: opts.Version, Rows: []Row{}}
	names := make([]string, 0, len(r.Targets))
	for n := range r.Targets {
		names = append(names, n)
	}
	slices.Sort(names)
	for i, n := range names {
		opts.Progress(fmt.Sprintf("[%d/%d] %s", i+1, len(names), n))
		b.Rows = append(b.Rows, checkOne(ctx, n, r.Targets[n], opts))
	}
	return b
}

// Command is the exact reproduction command of a row.
func Command(e Entry) string {
	cmd := "mcpward compat --url " + e.URL + " --read-only --profiles modern-full"
	return cmd
}

func checkOne(ctx context.Context, name string, e Entry, opts Options) Row {
	row := Row{Server: name, URL: e.URL, CheckedAt: opts.Now().UTC().Format(time.RFC3339), Command: Command(e), Notes: e.Notes}
	if e.ReportedAt != nil {
		row.ReportedAt = e.ReportedAt.UTC().Format(time.RFC3339)
	}
	if e.PublishedAt != nil {
		row.PublishedAt = e.PublishedAt.UTC().Format(time.RFC3339)
	}
	rep, err := probe(ctx, e, opts)
	if errors.Is(err, addrguard.ErrNotAllowed) {
		row.Status, row.StatusDetail, row.Command = StatusRefused, oneLine(err.Error()), ""
		row.Publishable = true
		return row
	}
	if err != nil {
		row.Status, row.StatusDetail = StatusUnreachable, oneLine(err.Error())
		var he *client.HTTPError
		if errors.As(err, &he) && he.Auth() {
			row.Status = StatusAuthRequired
		}
		row.Publishable = true
		return row
	}
	row.Status = StatusOK
	row.MustViolationCount = rep.MustViolations()
	if len(rep.Problems) > 0 {
		row.StatusDetail = "incomplete: " + strings.Join(rep.Problems, "; ")
	}
	row.Publishable = Publishable(row.MustViolationCount, e.ReportedAt, e.PublishedAt)
	if row.Publishable {
		row.Era = rep.Era
		row.SupportedVersions = rep.SupportedVersions
		row.Assertions = rep.Assertions
		for _, f := range rep.Findings() {
			f.Evidence = nil // the board states observations; evidence comes from the reproduction command
			row.Findings = append(row.Findings, f)
		}
	}
	return row
}

// probe checks one server read-only through a loopback forwarder that
// dials only the pinned, policy-checked address of the target's host.
func probe(ctx context.Context, e Entry, opts Options) (*compat.Report, error) {
	u, err := url.Parse(e.URL)
	if err != nil {
		return nil, err
	}
	addr, err := addrguard.Pin(ctx, opts.Resolve, u.Hostname(), opts.AllowLoopback)
	if err != nil {
		return nil, err
	}
	upstream := opts.Upstream
	if upstream == nil {
		pinned := &http.Transport{DialContext: addrguard.Pinned(addr, nil), ForceAttemptHTTP2: true, TLSHandshakeTimeout: 10 * time.Second, ResponseHeaderTimeout: 30 * time.Second}
		defer pinned.CloseIdleConnections()
		upstream = pinned
	}
	version := mcp.Revision(e.ProtocolVersion)
	spec, _, err := connect.Resolve(u.Host, &config.Target{URL: forwarderURL}, &connect.Source{Timeout: opts.Timeout})
	if err != nil {
		return nil, err
	}
	spec.RoundTripper = forwarder(u, upstream)
	sess, err := connect.Connect(ctx, spec, connect.Env{}, &client.Options{
		ClientInfo: mcp.Implementation{Name: "mcpward-board", Version: opts.Version}, Version: version, RequestTimeout: opts.Timeout,
	})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	base, _ := rules.BuiltinProfile(rules.Baseline)
	return compat.Run(ctx, sess, &compat.Options{Profiles: []rules.Profile{base}, ReadOnly: true, Now: opts.Now})
}

// forwarderURL is the URL the board's client speaks to: the forwarder,
// in-process, which sends every request to the target's URL.
const forwarderURL = "http://forwarder.invalid/"

// forwarder relays the board's requests to the one target URL over
// upstream (a transport that dials the pinned address; TLS still verifies
// the host name). It never follows redirects and adds no forwarding
// headers. It runs in-process (transport.HandlerRoundTripper), without a
// listener: the client's requests reach the reverse proxy as they would
// through a loopback socket, and nothing else can reach it.
func forwarder(u *url.URL, upstream http.RoundTripper) http.RoundTripper {
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme, pr.Out.URL.Host = u.Scheme, u.Host
			pr.Out.URL.Path, pr.Out.URL.RawPath, pr.Out.URL.RawQuery = u.Path, u.RawPath, u.RawQuery
			pr.Out.Host = u.Host
		},
		Transport:     upstream,
		FlushInterval: -1,
		ErrorLog:      log.New(io.Discard, "", 0),
	}
	return transport.HandlerRoundTripper(rp)
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
