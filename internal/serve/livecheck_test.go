package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/addrguard"
	"github.com/mcpward/mcpward/internal/board"
	"github.com/mcpward/mcpward/internal/fixture"
)

// fixtureServer serves an embedded fixture over HTTP on loopback and
// counts the JSON-RPC methods it receives.
func fixtureServer(t *testing.T, name string) (string, *sync.Map) {
	t.Helper()
	fx, err := fixture.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	h := fx.HTTPHandler()
	var methods sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(body, &m) == nil && m.Method != "" {
			n, _ := methods.LoadOrStore(m.Method, new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/", &methods
}

// post sends POST /api/check straight to the handler, from client
// (an IP), as if it arrived on 127.0.0.1:80.
func post(t *testing.T, app *Server, client, contentType, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("POST", "http://127.0.0.1/api/check", strings.NewReader(body))
	req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}))
	req.RemoteAddr = client + ":40000"
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Origin", "http://127.0.0.1")
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	return rec
}

func checkURL(u string) string {
	b, _ := json.Marshal(map[string]string{"url": u})
	return string(b)
}

func decodeCheck(t *testing.T, rec *httptest.ResponseRecorder) CheckResponse {
	t.Helper()
	var cr CheckResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &cr); err != nil {
		t.Fatalf("answer %d %s: %v", rec.Code, rec.Body, err)
	}
	return cr
}

// TestCheckFixture runs the real board probes against a loopback fixture
// under the test policy: a row, and no tools/call.
func TestCheckFixture(t *testing.T) {
	target, methods := fixtureServer(t, "clean@v1")
	app, err := New(&Options{Version: "test", Public: true, Check: &CheckOptions{AllowLoopback: true, Timeout: time.Minute, RequestTimeout: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	rec := post(t, app, "192.0.2.1", "application/json", checkURL(target))
	if rec.Code != 200 {
		t.Fatalf("check = %d %s", rec.Code, rec.Body)
	}
	cr := decodeCheck(t, rec)
	if cr.Row.Status != board.StatusOK || cr.Row.Era != "modern-only" || len(cr.Row.Assertions) == 0 || cr.Cached {
		t.Errorf("row = %+v", cr.Row)
	}
	if _, called := methods.Load("tools/call"); called {
		t.Error("the check sent tools/call")
	}
	if _, listed := methods.Load("tools/list"); !listed {
		t.Error("the counting wrapper saw no tools/list: the count is not working")
	}
	// A form post of the same URL is answered from the cache.
	rec = post(t, app, "192.0.2.1", "application/x-www-form-urlencoded", "url="+url.QueryEscape(target))
	if cr := decodeCheck(t, rec); rec.Code != 200 || !cr.Cached || cr.Row.Status != board.StatusOK {
		t.Errorf("second check = %d %+v", rec.Code, cr)
	}
}

// TestCheckRealPolicyRefusesLoopback: the same fixture URL is refused by
// the board's real address policy, over http:// (400) and https:// (403),
// and so is a name that resolves to a private or link-local address.
func TestCheckRealPolicyRefusesLoopback(t *testing.T) {
	target, methods := fixtureServer(t, "clean@v1")
	resolve := func(_ context.Context, host string) ([]netip.Addr, error) {
		switch host {
		case "private.example":
			return []netip.Addr{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("10.1.2.3")}, nil
		case "metadata.example":
			return []netip.Addr{netip.MustParseAddr("169.254.169.254")}, nil
		case "rebind.example":
			return []netip.Addr{netip.MustParseAddr("::ffff:127.0.0.1")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var ran atomic.Int64
	app, err := New(&Options{Version: "test", Public: true, Check: &CheckOptions{Resolve: resolve,
		Run: func(context.Context, *url.URL) board.Row { ran.Add(1); return board.Row{} }}})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	u, _ := url.Parse(target)
	tests := []struct {
		url    string
		status int
		code   string
	}{
		{target, 400, "not_https"},
		{"https://" + u.Host + "/", 403, "address_refused"},
		{"https://localhost:" + u.Port() + "/", 422, "unresolvable"}, // the injected resolver knows no localhost
		{"https://[::1]/mcp", 403, "address_refused"},
		{"https://private.example/mcp", 403, "address_refused"},
		{"https://metadata.example/mcp", 403, "address_refused"},
		{"https://rebind.example/mcp", 403, "address_refused"},
		{"https://nowhere.example/mcp", 422, "unresolvable"},
	}
	for i, tt := range tests {
		rec := post(t, app, "192.0."+itoa(i+1)+".1", "application/json", checkURL(tt.url))
		if rec.Code != tt.status || !strings.Contains(rec.Body.String(), `"code":"`+tt.code+`"`) {
			t.Errorf("check %s = %d %s, want %d %s", tt.url, rec.Code, rec.Body, tt.status, tt.code)
		}
	}
	if ran.Load() != 0 {
		t.Errorf("%d refused check(s) ran", ran.Load())
	}
	if _, seen := methods.Load("server/discover"); seen {
		t.Error("a refused target was contacted")
	}
	// The real policy itself, without the serve glue: loopback is refused.
	if _, err := addrguard.Pin(context.Background(), addrguard.SystemResolver, "127.0.0.1", false); err == nil {
		t.Error("addrguard.Pin admits loopback")
	}
}

// TestCheckBadInput: each bad input gets its status and a JSON error.
func TestCheckBadInput(t *testing.T) {
	app, err := New(&Options{Version: "test", Public: true, Check: &CheckOptions{
		Run: func(context.Context, *url.URL) board.Row { t.Error("a bad input ran a check"); return board.Row{} }}})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	long := "https://example.com/" + strings.Repeat("a", MaxURLLength)
	tests := []struct {
		name, ctype, body string
		status            int
		code              string
	}{
		{"not a URL", "application/json", checkURL("not a url"), 400, "not_a_url"},
		{"relative", "application/json", checkURL("/mcp"), 400, "not_a_url"},
		{"empty", "application/json", checkURL(""), 400, "missing_url"},
		{"no host", "application/json", checkURL("https:///mcp"), 400, "not_a_url"},
		{"ftp", "application/json", checkURL("ftp://example.com/"), 400, "not_https"},
		{"javascript", "application/json", checkURL("javascript:alert(1)"), 400, "not_a_url"},
		{"credentials", "application/json", checkURL("https://u:p@example.com/"), 400, "credentials_in_url"},
		{"bad port", "application/json", checkURL("https://example.com:99999/"), 400, "not_a_url"},
		{"URL too long", "application/json", `{"url":"` + long[:MaxURLLength+1] + `"}`, 414, "url_too_long"},
		{"body too large", "application/json", `{"url":"` + long + strings.Repeat("a", 4096) + `"}`, 413, "body_too_large"},
		{"not JSON", "application/json", `{"url":`, 400, "bad_json"},
		{"other type", "text/plain", "https://example.com/", 415, "bad_content_type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := post(t, app, "192.0.2.9", tt.ctype, tt.body)
			if rec.Code != tt.status || !strings.Contains(rec.Body.String(), `"code":"`+tt.code+`"`) {
				t.Errorf("= %d %s, want %d %s", rec.Code, rec.Body, tt.status, tt.code)
			}
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type = %q", ct)
			}
		})
	}
}

// fakeClock is a clock the test steps.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestCheckRateLimits: per client, then globally, 429 with Retry-After;
// a token comes back with the injected clock, not with waiting.
func TestCheckRateLimits(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)}
	var ran atomic.Int64
	app, err := New(&Options{Version: "test", Public: true, Check: &CheckOptions{
		PerClient: Rate{Every: time.Minute, Burst: 2}, Global: Rate{Every: 10 * time.Second, Burst: 3},
		AllowLoopback: true, Now: clock.Now,
		Run: countedOK(&ran)}})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	n := 0
	check := func(client string) *httptest.ResponseRecorder {
		n++ // a new URL each time: no cache hit
		return post(t, app, client, "application/json", checkURL("http://127.0.0.1:"+itoa(1000+n)+"/"))
	}
	for i := range 2 {
		if rec := check("192.0.2.1"); rec.Code != 200 {
			t.Fatalf("check %d of client 1 = %d %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := check("192.0.2.1")
	if rec.Code != 429 || rec.Header().Get("Retry-After") != "60" || !strings.Contains(rec.Body.String(), `"rate_limited"`) {
		t.Errorf("third check of client 1 = %d Retry-After %q %s, want 429 after 60", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	// Client 2 takes the last global token; client 3 is then refused
	// globally though its own bucket is full.
	if rec := check("198.51.100.2"); rec.Code != 200 {
		t.Fatalf("client 2 = %d %s", rec.Code, rec.Body)
	}
	rec = check("203.0.113.3")
	if rec.Code != 429 || rec.Header().Get("Retry-After") != "10" {
		t.Errorf("client 3 = %d Retry-After %q, want 429 after 10 (global)", rec.Code, rec.Header().Get("Retry-After"))
	}
	// The global refusal gave client 3's token back: after 10s it has
	// both of its own.
	clock.Add(10 * time.Second)
	if rec := check("203.0.113.3"); rec.Code != 200 {
		t.Errorf("client 3 after 10s = %d %s", rec.Code, rec.Body)
	}
	clock.Add(50 * time.Second)
	if rec := check("192.0.2.1"); rec.Code != 200 {
		t.Errorf("client 1 after 60s = %d %s", rec.Code, rec.Body)
	}
	if got := ran.Load(); got != 5 {
		t.Errorf("checks run = %d, want 5", got)
	}
}

// TestCheckConcurrencyCap: with every slot taken, one more check is
// refused with 503, never queued; the running check still answers.
func TestCheckConcurrencyCap(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	app, err := New(&Options{Version: "test", Public: true, Check: &CheckOptions{Concurrency: 1, AllowLoopback: true,
		Run: func(_ context.Context, u *url.URL) board.Row {
			if u.Port() == "1001" {
				close(started)
				<-release
			}
			return board.Row{Server: u.Host, Status: board.StatusOK}
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- post(t, app, "192.0.2.1", "application/json", checkURL("http://127.0.0.1:1001/")) }()
	<-started
	rec := post(t, app, "198.51.100.2", "application/json", checkURL("http://127.0.0.1:1002/"))
	if rec.Code != 503 || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), `"over_capacity"`) {
		t.Errorf("check over capacity = %d %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	close(release)
	if rec := <-done; rec.Code != 200 {
		t.Errorf("running check = %d %s", rec.Code, rec.Body)
	}
	if rec := post(t, app, "198.51.100.2", "application/json", checkURL("http://127.0.0.1:1002/")); rec.Code != 200 {
		t.Errorf("check once the slot is free = %d %s", rec.Code, rec.Body)
	}
}

// TestCheckTimeLimit: a check's context ends at its time limit.
func TestCheckTimeLimit(t *testing.T) {
	app, err := New(&Options{Version: "test", Public: true, Check: &CheckOptions{Timeout: time.Millisecond, AllowLoopback: true,
		Run: func(ctx context.Context, u *url.URL) board.Row {
			<-ctx.Done() // a server that never answers
			return board.Row{Server: u.Host, Status: board.StatusUnreachable, StatusDetail: ctx.Err().Error()}
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	rec := post(t, app, "192.0.2.1", "application/json", checkURL("http://127.0.0.1:1001/"))
	if cr := decodeCheck(t, rec); rec.Code != 200 || cr.Row.Status != board.StatusUnreachable || !strings.Contains(cr.Row.StatusDetail, "deadline") {
		t.Errorf("check = %d %+v", rec.Code, cr.Row)
	}
}

// TestCheckCache: a URL is probed once per TTL.
func TestCheckCache(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)}
	var ran atomic.Int64
	app, err := New(&Options{Version: "test", Public: true, Check: &CheckOptions{CacheTTL: time.Minute, AllowLoopback: true, Now: clock.Now,
		Run: countedOK(&ran)}})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	want := []struct {
		step   time.Duration
		cached bool
	}{{0, false}, {59 * time.Second, true}, {time.Second, false}, {0, true}}
	for i, w := range want {
		clock.Add(w.step)
		// The fragment and the host's case do not make another URL.
		u := "http://127.0.0.1:1001/mcp"
		if i == 1 {
			u = "http://127.0.0.1:1001/mcp#x"
		}
		rec := post(t, app, "192.0.2.1", "application/json", checkURL(u))
		if cr := decodeCheck(t, rec); rec.Code != 200 || cr.Cached != w.cached {
			t.Errorf("check %d = %d cached %v, want cached %v", i, rec.Code, cr.Cached, w.cached)
		}
	}
	if ran.Load() != 2 {
		t.Errorf("probed %d times, want 2", ran.Load())
	}
}

// TestCheckOffWithoutPublic: no POST /api/check unless public.
func TestCheckOffWithoutPublic(t *testing.T) {
	app, _ := New(&Options{Version: "test"})
	if rec := post(t, app, "192.0.2.1", "application/json", checkURL("https://example.com/")); rec.Code != 405 {
		t.Errorf("POST /api/check without --public = %d", rec.Code)
	}
	pub, _ := New(&Options{Version: "test", Public: true})
	for _, path := range []string{"/api/sessions", "/api/snapshots", "/api/results", "/api/events"} {
		req := httptest.NewRequest("GET", "http://127.0.0.1"+path, nil)
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}))
		rec := httptest.NewRecorder()
		pub.ServeHTTP(rec, req)
		if rec.Code != 404 {
			t.Errorf("public GET %s = %d, want 404: the machine's data is not served in public mode", path, rec.Code)
		}
	}
}

// TestLimiter: a bucket refills at its rate and never beyond its size.
func TestLimiter(t *testing.T) {
	l := newLimiter(Rate{Every: time.Second, Burst: 2})
	t0 := time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
	steps := []struct {
		at   time.Duration
		ok   bool
		wait time.Duration
	}{{0, true, 0}, {0, true, 0}, {0, false, time.Second}, {500 * time.Millisecond, false, 500 * time.Millisecond},
		{time.Second, true, 0}, {time.Hour, true, 0}, {time.Hour, true, 0}, {time.Hour, false, time.Second}}
	for i, s := range steps {
		ok, wait := l.allow("k", t0.Add(s.at))
		if ok != s.ok || wait != s.wait {
			t.Errorf("step %d at +%s: allow = %v, %s; want %v, %s", i, s.at, ok, wait, s.ok, s.wait)
		}
	}
}

// countedOK is a check that counts its runs in ran and finds the server
// fine.
func countedOK(ran *atomic.Int64) func(context.Context, *url.URL) board.Row {
	return func(_ context.Context, u *url.URL) board.Row {
		ran.Add(1)
		return board.Row{Server: u.Host, Status: board.StatusOK}
	}
}

// TestCheckClientKey: the limits key on the client's /24 or /64; the
// full IPv6 address let one host take any number of keys.
func TestCheckClientKey(t *testing.T) {
	key := func(addr string) string {
		return clientKey(&http.Request{RemoteAddr: addr})
	}
	for _, tc := range []struct{ a, b string }{
		{"192.0.2.1:1", "192.0.2.254:2"},
		{"[2001:db8:1:2::1]:1", "[2001:db8:1:2:ffff:ffff:ffff:ffff]:2"},
		{"[::ffff:192.0.2.9]:1", "192.0.2.10:1"},
		{"[fe80::1%eth0]:1", "[fe80::2]:1"},
	} {
		if key(tc.a) != key(tc.b) {
			t.Errorf("%s and %s key apart: %s, %s", tc.a, tc.b, key(tc.a), key(tc.b))
		}
	}
	for _, tc := range []struct{ a, b string }{
		{"192.0.2.1:1", "192.0.3.1:1"},
		{"[2001:db8:1:2::1]:1", "[2001:db8:1:3::1]:1"},
	} {
		if key(tc.a) == key(tc.b) {
			t.Errorf("%s and %s share the key %s", tc.a, tc.b, key(tc.a))
		}
	}
}

// TestCheckEndsWithClient: a check whose client went away stops (its
// slot is free again) and its row is not cached.
func TestCheckEndsWithClient(t *testing.T) {
	started, ended := make(chan struct{}), make(chan error, 1)
	var ran atomic.Int64
	app, err := New(&Options{Version: "test", Public: true, Check: &CheckOptions{Concurrency: 1, AllowLoopback: true,
		Run: func(ctx context.Context, u *url.URL) board.Row {
			if ran.Add(1) == 1 {
				close(started)
				<-ctx.Done() // a target that never answers
				ended <- ctx.Err()
				return board.Row{Server: u.Host, Status: board.StatusUnreachable, StatusDetail: ctx.Err().Error()}
			}
			return board.Row{Server: u.Host, Status: board.StatusOK}
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest("POST", "http://127.0.0.1/api/check", strings.NewReader(checkURL("http://127.0.0.1:1001/")))
	req = req.WithContext(context.WithValue(ctx, http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}))
	req.RemoteAddr = "192.0.2.1:40000"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://127.0.0.1")
	done := make(chan struct{})
	go func() { app.ServeHTTP(httptest.NewRecorder(), req); close(done) }()
	<-started
	cancel()
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("check ended with %v, want the client's cancellation", err)
	}
	<-done
	// The slot is free and nothing was cached: the same URL runs again.
	if rec := post(t, app, "198.51.100.1", "application/json", checkURL("http://127.0.0.1:1001/")); rec.Code != 200 || decodeCheck(t, rec).Row.Status != board.StatusOK {
		t.Errorf("check after the client left = %d %s", rec.Code, rec.Body)
	}
}

// TestCheckClientSlotLimits: one client network runs one check at once,
// and its checks hold slots for at most SlotBudget per SlotWindow; other
// networks are not held up.
func TestCheckClientSlotLimits(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)}
	started, release := make(chan struct{}), make(chan struct{})
	app, err := New(&Options{Version: "test", Public: true, Check: &CheckOptions{Concurrency: 4, AllowLoopback: true, Now: clock.Now,
		PerClient: Rate{Every: time.Second, Burst: 100}, Global: Rate{Every: time.Second, Burst: 100},
		SlotBudget: 3 * time.Minute, SlotWindow: 10 * time.Minute,
		Run: func(_ context.Context, u *url.URL) board.Row {
			switch u.Port() {
			case "1001":
				close(started)
				<-release
			case "2000":
				clock.Add(2 * time.Minute) // a slow target
			}
			return board.Row{Server: u.Host, Status: board.StatusOK}
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- post(t, app, "192.0.2.1", "application/json", checkURL("http://127.0.0.1:1001/")) }()
	<-started
	if rec := post(t, app, "192.0.2.77", "application/json", checkURL("http://127.0.0.1:1002/")); rec.Code != 429 {
		t.Errorf("second check of the same /24 while one runs = %d %s, want 429", rec.Code, rec.Body)
	}
	if rec := post(t, app, "198.51.100.1", "application/json", checkURL("http://127.0.0.1:1003/")); rec.Code != 200 {
		t.Errorf("another network's check = %d %s", rec.Code, rec.Body)
	}
	close(release)
	<-done
	// Two slow checks of 2 minutes each spend the 3-minute budget.
	for i, want := range []int{200, 200, 429} {
		rec := post(t, app, "203.0.113.5", "application/json", checkURL("http://127.0.0.1:2000/?"+itoa(i)))
		if rec.Code != want {
			t.Errorf("slow check %d = %d %s, want %d", i+1, rec.Code, rec.Body, want)
		}
		if want == 429 && rec.Header().Get("Retry-After") != "360" {
			t.Errorf("Retry-After = %q, want 360 (the window's end)", rec.Header().Get("Retry-After"))
		}
	}
}
