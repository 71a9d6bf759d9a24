package serve

import (
	"crypto/subtle"
	"embed"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/hostguard"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/sessionexport/html"
)

//go:embed assets
var assets embed.FS

// CSP is the Content-Security-Policy of every page and response of the
// app: scripts, styles and fetches only from the app itself; no inline
// script or style, no eval, no frames, no plugins.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Options configure a Server. The zero value serves empty pages.
type Options struct {
	// Version is mcpward's version, shown in the page and stamped into
	// exports and results.
	Version string
	// Hub feeds the sessions pages; nil serves no sessions.
	Hub *hub.Hub
	// HubMode says how the hub sees sessions, for the page: "socket"
	// (live from proxies and from the logs) or "logs" (another hub owns
	// the socket: logs only).
	HubMode string
	// SnapshotDir is the repository's snapshot directory ("" for none).
	SnapshotDir string
	// ResultDirs are searched (not recursively) for saved Result JSON
	// files (compat --json, check --json …).
	ResultDirs []string
	// Board is a board JSON file (`mcpward board run` writes them), or a
	// directory of them whose newest is shown; "" for none.
	Board string
	// Public serves only what may be shown to anyone (the board and the
	// live check): the sessions, snapshots and results of this machine
	// are not served.
	Public bool
	// Check enables POST /api/check (public mode); nil leaves it off.
	Check *CheckOptions
	// AllowHosts are further names accepted in Host and Origin: "name"
	// with any port, or "name:port" (a reverse proxy's public name).
	AllowHosts []string
	// Token, when set, is the access token every request must carry:
	// the loopback port is open to every user of the machine, and the
	// sessions hold what the hub socket (mode 0600) keeps from them. The
	// URL the command prints carries it once (?token=); the app then
	// keeps it in a cookie (HttpOnly, SameSite=Strict). "" serves
	// without one (public mode, tests).
	Token string
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// A Server is the app's http.Handler.
type Server struct {
	opts    Options
	mux     *http.ServeMux
	checker *checker
	guard   hostguard.Guard // same origin only
	events  chan struct{}   // slots for event streams
	counts  counts          // frames and errors of each hub session
}

// maxEventStreams bounds the open event streams (each holds a hub
// subscription).
const maxEventStreams = 32

// New builds the app.
func New(opts *Options) (*Server, error) {
	s := &Server{mux: http.NewServeMux(), events: make(chan struct{}, maxEventStreams)}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Now == nil {
		s.opts.Now = time.Now
	}
	if s.opts.Check != nil {
		c, err := newChecker(s.opts.Check, s.opts.Version)
		if err != nil {
			return nil, err
		}
		s.checker = c
	}
	s.guard = hostguard.Guard{AllowHosts: s.opts.AllowHosts}
	s.routes()
	return s, nil
}

// Close stops the checks in flight.
func (s *Server) Close() {
	if s.checker != nil {
		s.checker.close()
	}
}

func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /{$}", s.index)
	m.HandleFunc("GET /assets/{name}", s.asset)
	m.HandleFunc("GET /api/info", s.info)
	m.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	m.HandleFunc("GET /board", s.boardPage)
	m.HandleFunc("GET /api/board", s.boardJSON)
	if !s.opts.Public {
		m.HandleFunc("GET /api/sessions", s.sessions)
		m.HandleFunc("GET /api/sessions/{id}", s.sessionExport)
		m.HandleFunc("GET /api/events", s.eventStream)
		m.HandleFunc("GET /api/snapshots", s.snapshots)
		m.HandleFunc("GET /api/snapshots/{name}", s.snapshotDetail)
		m.HandleFunc("GET /api/diff", s.diff)
		m.HandleFunc("GET /api/results", s.results)
		m.HandleFunc("GET /api/results/{name}", s.resultDetail)
	}
	if s.checker != nil {
		m.HandleFunc("POST /api/check", s.check)
	}
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such API: "+r.URL.Path)
	})
}

// ServeHTTP implements http.Handler: the security headers, the Host and
// Origin check, the method check, then the route.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if ref := s.guard.Check(r); ref != nil {
		writeError(w, http.StatusForbidden, "forbidden_host", ref.Error())
		return
	}
	if !s.authorized(w, r) {
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodPost:
		if s.checker == nil || r.URL.Path != "/api/check" {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "read-only: only GET and HEAD are answered here")
			return
		}
	default:
		allow := "GET, HEAD"
		if s.checker != nil && r.URL.Path == "/api/check" {
			allow = "POST"
		}
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "read-only: only GET and HEAD are answered here")
		return
	}
	s.mux.ServeHTTP(w, r)
}

// cookieName is the token's cookie: one per port, as cookies do not tell
// ports apart and two apps may run side by side.
func cookieName(r *http.Request) string {
	_, port := hostguard.SplitHost(r.Host)
	return "mcpward_serve_" + port
}

// authorized checks the access token: the cookie, or ?token= on the
// page, which then sets the cookie and redirects to the page without it
// (so the token leaves the address bar and the history). It answers the
// refusal itself.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.Token == "" || r.URL.Path == "/favicon.ico" {
		return true
	}
	if c, err := r.Cookie(cookieName(r)); err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.opts.Token)) == 1 {
		return true
	}
	if q := r.URL.Query().Get("token"); q != "" && r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) &&
		subtle.ConstantTimeCompare([]byte(q), []byte(s.opts.Token)) == 1 {
		http.SetCookie(w, &http.Cookie{Name: cookieName(r), Value: s.opts.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return false
	}
	writeError(w, http.StatusUnauthorized, "unauthorized", "open the URL mcpward serve printed: it carries the access token")
	return false
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	b, err := assets.ReadFile("assets/index.html")
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}

var assetTypes = map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}

// shared are the HTML session report's own files that the app serves as
// its assets: the session page is the report's stream, with its filter
// language (which a test keeps in step with package filter) and style.
var shared = map[string]func() string{"filter.js": html.FilterJS, "stream.js": html.StreamJS, "report.css": html.StyleCSS}

func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	var b []byte
	if f, ok := shared[name]; ok {
		b = []byte(f())
	} else {
		var err error
		if strings.Contains(name, "/") || name == "index.html" {
			http.NotFound(w, r)
			return
		}
		if b, err = assets.ReadFile("assets/" + name); err != nil {
			http.NotFound(w, r)
			return
		}
	}
	typ := assetTypes[name[strings.LastIndexByte(name, '.'):]]
	if typ == "" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b)
}

// Info is what GET /api/info says about the app.
type Info struct {
	Version string `json:"version"`
	Public  bool   `json:"public"`
	Check   bool   `json:"check"`
	// Hub is "socket", "logs", or "" when sessions are not served.
	Hub       string `json:"hub"`
	Snapshots string `json:"snapshots,omitempty"`
	Board     bool   `json:"board"`
}

func (s *Server) info(w http.ResponseWriter, r *http.Request) {
	in := Info{Version: s.opts.Version, Public: s.opts.Public, Check: s.checker != nil, Board: s.opts.Board != ""}
	if !s.opts.Public {
		if s.opts.Hub != nil {
			in.Hub = s.opts.HubMode
			if in.Hub == "" {
				in.Hub = "socket"
			}
		}
		in.Snapshots = s.opts.SnapshotDir
	}
	writeJSON(w, http.StatusOK, in)
}

// An apiError is the body of every error answer.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	var e apiError
	e.Error.Code, e.Error.Message = code, msg
	writeJSON(w, status, e)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"code":"internal","message":"encode the answer"}}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
	w.Write([]byte("\n"))
}
