package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/addrguard"
	"github.com/mcpward/mcpward/internal/board"
)

// Defaults of CheckOptions.
const (
	DefaultCheckTimeout   = 60 * time.Second
	DefaultRequestTimeout = 10 * time.Second
	DefaultConcurrency    = 4
	DefaultCacheTTL       = 5 * time.Minute
	// MaxURLLength is the longest URL a check accepts.
	MaxURLLength = 2048
	// maxCheckBody bounds the body of POST /api/check.
	maxCheckBody = 4096
	// maxCached bounds the result cache.
	maxCached = 1024
	// DefaultPerClientRunning is how many checks one client network may
	// run at once.
	DefaultPerClientRunning = 1
	// DefaultSlotBudget is how long one client network's checks may hold
	// slots, in all, within DefaultSlotWindow: a few addresses pointing
	// at slow targets held every slot for the whole time limit, again and
	// again.
	DefaultSlotBudget = 3 * time.Minute
	DefaultSlotWindow = 10 * time.Minute
)

// Default rates of CheckOptions: a client may run 3 checks at once, then
// one a minute; everyone together 30 at once, then one every 2 seconds.
var (
	DefaultPerClient = Rate{Every: time.Minute, Burst: 3}
	DefaultGlobal    = Rate{Every: 2 * time.Second, Burst: 30}
)

// CheckOptions configure the live check (POST /api/check). Zero fields
// take the defaults.
type CheckOptions struct {
	// PerClient limits each client address; Global all of them together.
	PerClient, Global Rate
	// Concurrency caps the checks running at once; one more is refused
	// (503), never queued.
	Concurrency int
	// PerClientRunning caps the checks one client network (its /24 or
	// /64) runs at once; SlotBudget bounds the time its checks hold
	// slots in all within SlotWindow, and a check's time limit is cut to
	// what is left of it.
	PerClientRunning       int
	SlotBudget, SlotWindow time.Duration
	// Timeout bounds one whole check; RequestTimeout each request of it.
	Timeout, RequestTimeout time.Duration
	// CacheTTL is how long a URL's result is answered again without a
	// new probe.
	CacheTTL time.Duration
	// AllowLoopback relaxes the board's address policy to admit loopback
	// addresses and http:// URLs. Tests only.
	AllowLoopback bool
	// Resolve resolves host names (default addrguard.SystemResolver).
	Resolve addrguard.Resolver
	// Now is the clock of the rate limits and the cache (default
	// time.Now).
	Now func() time.Time
	// Run runs the board's probes on one URL (default: board.RunBoard
	// over a one-server roster). Tests replace it to count or block.
	Run func(ctx context.Context, u *url.URL) board.Row
}

type checker struct {
	opts      CheckOptions
	version   string
	perClient *limiter
	global    *limiter
	slots     chan struct{}
	ctx       context.Context
	cancel    context.CancelFunc

	mu    sync.Mutex
	cache map[string]cached
	// held is, per client network, its running checks and the slot time
	// its checks used in the current window.
	held map[string]*holding
}

type holding struct {
	running     int
	used        time.Duration
	windowStart time.Time
}

type cached struct {
	row board.Row
	at  time.Time
}

func newChecker(o *CheckOptions, version string) (*checker, error) {
	c := &checker{opts: *o, version: version, cache: map[string]cached{}, held: map[string]*holding{}}
	if c.opts.PerClient == (Rate{}) {
		c.opts.PerClient = DefaultPerClient
	}
	if c.opts.Global == (Rate{}) {
		c.opts.Global = DefaultGlobal
	}
	if c.opts.Concurrency <= 0 {
		c.opts.Concurrency = DefaultConcurrency
	}
	if c.opts.Timeout <= 0 {
		c.opts.Timeout = DefaultCheckTimeout
	}
	if c.opts.PerClientRunning <= 0 {
		c.opts.PerClientRunning = DefaultPerClientRunning
	}
	if c.opts.SlotBudget <= 0 {
		c.opts.SlotBudget = DefaultSlotBudget
	}
	if c.opts.SlotWindow <= 0 {
		c.opts.SlotWindow = DefaultSlotWindow
	}
	if c.opts.RequestTimeout <= 0 {
		c.opts.RequestTimeout = DefaultRequestTimeout
	}
	if c.opts.CacheTTL < 0 {
		return nil, errors.New("check: cache TTL must not be negative")
	}
	if c.opts.CacheTTL == 0 {
		c.opts.CacheTTL = DefaultCacheTTL
	}
	if c.opts.Resolve == nil {
		c.opts.Resolve = addrguard.SystemResolver
	}
	if c.opts.Now == nil {
		c.opts.Now = time.Now
	}
	if c.opts.Run == nil {
		c.opts.Run = c.runBoard
	}
	c.perClient, c.global = newLimiter(c.opts.PerClient), newLimiter(c.opts.Global)
	c.slots = make(chan struct{}, c.opts.Concurrency)
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c, nil
}

func (c *checker) close() { c.cancel() }

// runBoard runs the board's read-only probes (no tools/call, no
// credentials) on u, under the board's address policy.
func (c *checker) runBoard(ctx context.Context, u *url.URL) board.Row {
	roster := &board.Roster{Targets: map[string]board.Entry{u.Host: {URL: u.String()}}}
	b := board.RunBoard(ctx, roster, board.Options{Now: c.opts.Now, Version: c.version, Timeout: c.opts.RequestTimeout,
		AllowLoopback: c.opts.AllowLoopback, Resolve: c.opts.Resolve})
	return b.Rows[0]
}

// A checkError is a refused check: its HTTP status, code and message.
type checkError struct {
	status     int
	code, msg  string
	retryAfter time.Duration
}

func (e *checkError) Error() string { return e.msg }

func badInput(code, format string, args ...any) *checkError {
	return &checkError{status: http.StatusBadRequest, code: code, msg: fmt.Sprintf(format, args...)}
}

// parseCheckURL validates the URL to check: absolute, https:// (http://
// too under the test policy), a host, no user info, not too long.
func parseCheckURL(raw string, allowHTTP bool) (*url.URL, *checkError) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, badInput("missing_url", "give the server's URL: {\"url\": \"https://…\"}")
	}
	if len(raw) > MaxURLLength {
		return nil, &checkError{status: http.StatusRequestURITooLong, code: "url_too_long", msg: fmt.Sprintf("the URL is %d bytes long; at most %d are accepted", len(raw), MaxURLLength)}
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return nil, badInput("not_a_url", "%q is not an absolute URL", raw)
	}
	if u.User != nil {
		return nil, badInput("credentials_in_url", "the URL carries credentials; the check never sends any")
	}
	if u.Scheme != "https" && !(allowHTTP && u.Scheme == "http") {
		return nil, badInput("not_https", "the URL must be https://, got %s://", u.Scheme)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, badInput("not_a_url", "port %q is not a port number", p)
		}
	}
	if u.Hostname() == "" {
		return nil, badInput("not_a_url", "%q has no host", raw)
	}
	u.Fragment, u.RawFragment = "", ""
	u.Host = strings.ToLower(u.Host)
	return u, nil
}

// CheckResponse is the answer of POST /api/check.
type CheckResponse struct {
	URL string `json:"url"`
	// Cached is set when the row is a recent check's, answered again.
	Cached bool      `json:"cached"`
	Row    board.Row `json:"row"`
}

// readCheckURL reads the URL from the body: JSON {"url": …} or a form.
func readCheckURL(w http.ResponseWriter, r *http.Request) (string, *checkError) {
	if r.ContentLength > maxCheckBody {
		return "", &checkError{status: http.StatusRequestEntityTooLarge, code: "body_too_large", msg: fmt.Sprintf("the request body is over %d bytes", maxCheckBody)}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxCheckBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return "", &checkError{status: http.StatusRequestEntityTooLarge, code: "body_too_large", msg: fmt.Sprintf("the request body is over %d bytes", maxCheckBody)}
		}
		return "", badInput("bad_body", "read the request body: %v", err)
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		var in struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal(body, &in); err != nil {
			return "", badInput("bad_json", "the body is not a JSON object {\"url\": \"https://…\"}: %v", err)
		}
		return in.URL, nil
	case "application/x-www-form-urlencoded":
		v, err := url.ParseQuery(string(body))
		if err != nil {
			return "", badInput("bad_form", "the form does not parse: %v", err)
		}
		return v.Get("url"), nil
	}
	return "", &checkError{status: http.StatusUnsupportedMediaType, code: "bad_content_type", msg: "send application/json {\"url\": \"https://…\"} or a form with url="}
}

// clientKey is the client's network, the key of its limits: the /24 of
// an IPv4 address and the /64 of an IPv6 one (one host of IPv6 has a
// whole /64 to pick addresses from, so the full address keyed nothing).
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.WithZone("").Unmap()
	bits := 64
	if a.Is4() {
		bits = 24
	}
	p, err := a.Prefix(bits)
	if err != nil {
		return host
	}
	return p.String()
}

// hold takes one of client's running checks, or says how long until it
// may run one: when it runs PerClientRunning already (a few seconds), or
// its slot time in this window is spent (until the window ends). It
// returns the slot time the client has left.
func (c *checker) hold(client string, now time.Time) (left time.Duration, wait time.Duration, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.held[client]
	if h == nil {
		if len(c.held) >= maxCached {
			c.dropIdleLocked(now)
		}
		h = &holding{windowStart: now}
		c.held[client] = h
	}
	if now.Sub(h.windowStart) >= c.opts.SlotWindow || now.Before(h.windowStart) {
		h.used, h.windowStart = 0, now
	}
	if h.used >= c.opts.SlotBudget {
		return 0, h.windowStart.Add(c.opts.SlotWindow).Sub(now), false
	}
	if h.running >= c.opts.PerClientRunning {
		return 0, 5 * time.Second, false
	}
	h.running++
	return c.opts.SlotBudget - h.used, 0, true
}

// release gives back client's running check, which held a slot for d.
func (c *checker) release(client string, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h := c.held[client]; h != nil {
		h.running--
		h.used += max(d, 0)
	}
}

// dropIdleLocked forgets clients with nothing running and a spent window.
func (c *checker) dropIdleLocked(now time.Time) {
	for k, h := range c.held {
		if h.running == 0 && now.Sub(h.windowStart) >= c.opts.SlotWindow {
			delete(c.held, k)
		}
	}
}

// check answers POST /api/check. In order: the input (400, 413, 414,
// 415), the cache, the client's then the global rate limit (429), a free
// slot (503), the address policy (403, or 422 when the name does not
// resolve), then the probes under the time limit.
func (s *Server) check(w http.ResponseWriter, r *http.Request) {
	row, cachedRow, u, cerr := s.checker.do(r, w)
	if cerr != nil {
		if cerr.retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(cerr.retryAfter.Seconds()))))
		}
		writeError(w, cerr.status, cerr.code, cerr.msg)
		return
	}
	writeJSON(w, http.StatusOK, CheckResponse{URL: u.String(), Cached: cachedRow, Row: row})
}

func (c *checker) do(r *http.Request, w http.ResponseWriter) (board.Row, bool, *url.URL, *checkError) {
	raw, cerr := readCheckURL(w, r)
	if cerr != nil {
		return board.Row{}, false, nil, cerr
	}
	u, cerr := parseCheckURL(raw, c.opts.AllowLoopback)
	if cerr != nil {
		return board.Row{}, false, nil, cerr
	}
	key := u.String()
	now := c.opts.Now()
	if row, ok := c.lookup(key, now); ok {
		return row, true, u, nil
	}
	client := clientKey(r)
	if ok, wait := c.perClient.allow(client, now); !ok {
		return board.Row{}, false, nil, &checkError{status: http.StatusTooManyRequests, code: "rate_limited",
			msg: "too many checks from your address; try again later", retryAfter: wait}
	}
	if ok, wait := c.global.allow("", now); !ok {
		c.perClient.giveBack(client, now)
		return board.Row{}, false, nil, &checkError{status: http.StatusTooManyRequests, code: "rate_limited",
			msg: "too many checks right now; try again later", retryAfter: wait}
	}
	left, wait, ok := c.hold(client, now)
	if !ok {
		c.perClient.giveBack(client, now)
		c.global.giveBack("", now)
		return board.Row{}, false, nil, &checkError{status: http.StatusTooManyRequests, code: "rate_limited",
			msg: "your network's checks are running or used their time; try again later", retryAfter: wait}
	}
	select {
	case c.slots <- struct{}{}:
	default:
		c.release(client, 0)
		c.perClient.giveBack(client, now)
		c.global.giveBack("", now)
		return board.Row{}, false, nil, &checkError{status: http.StatusServiceUnavailable, code: "over_capacity",
			msg: fmt.Sprintf("%d checks are running, the most at once; try again shortly", cap(c.slots)), retryAfter: 5 * time.Second}
	}
	defer func() { <-c.slots }()
	defer func() { c.release(client, c.opts.Now().Sub(now)) }()

	// The check ends with the request (a client that left frees its slot)
	// and with the server, at its time limit or when the client network's
	// slot time runs out, whichever comes first.
	ctx, cancel := context.WithTimeout(r.Context(), min(c.opts.Timeout, left))
	defer cancel()
	stop := context.AfterFunc(c.ctx, cancel)
	defer stop()
	if _, err := addrguard.Pin(ctx, c.opts.Resolve, u.Hostname(), c.opts.AllowLoopback); err != nil {
		if errors.Is(err, addrguard.ErrNotAllowed) {
			return board.Row{}, false, nil, &checkError{status: http.StatusForbidden, code: "address_refused", msg: err.Error()}
		}
		return board.Row{}, false, nil, &checkError{status: http.StatusUnprocessableEntity, code: "unresolvable", msg: err.Error()}
	}
	row := c.opts.Run(ctx, u)
	if r.Context().Err() != nil || c.ctx.Err() != nil {
		// Cut short by the client leaving or the server stopping: the
		// row says nothing about the target, so it is not cached.
		return row, false, u, nil
	}
	c.store(key, row, c.opts.Now())
	return row, false, u, nil
}

func (c *checker) lookup(key string, now time.Time) (board.Row, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.cache[key]
	if !ok || now.Sub(e.at) >= c.opts.CacheTTL || now.Before(e.at) {
		return board.Row{}, false
	}
	return e.row, true
}

func (c *checker) store(key string, row board.Row, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.cache) >= maxCached {
		for k, e := range c.cache {
			if now.Sub(e.at) >= c.opts.CacheTTL {
				delete(c.cache, k)
			}
		}
		if len(c.cache) >= maxCached {
			clear(c.cache)
		}
	}
	c.cache[key] = cached{row: row, at: now}
}
