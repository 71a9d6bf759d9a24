package hub

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/session"
)

// Defaults of Options.
const (
	DefaultHistory       = 100
	DefaultMemoryBudget  = 256 << 20
	DefaultKeepFull      = 5000
	DefaultKeepSummaries = 200_000
	DefaultBacklog       = 1 << 16
	DefaultPollInterval  = 500 * time.Millisecond
	DefaultSparkSeconds  = 120
)

// NoSocket as Options.Socket runs the hub without a socket: it then sees
// sessions through their logs only.
const NoSocket = "-"

// ErrHubRunning is returned by New when another hub answers on the socket
// (as a [*RunningError], which names the holder when it can).
var ErrHubRunning = errors.New("another mcpward hub is running")

// Options configure a Hub. Only StateDir is required (or Socket, for a hub
// that reads no logs).
type Options struct {
	// StateDir is mcpward's state directory (session.StateDir); session
	// logs are read from its "sessions" folder. "" reads no logs.
	StateDir string
	// History is how many of the newest logs are read at start (by
	// modification time); 0 reads all (the command line's default is
	// DefaultHistory). Older logs are read too if they grow later.
	History int
	// MemoryBudget bounds the estimated bytes of records held
	// (DefaultMemoryBudget if 0). Whole sessions, least recently active
	// first, are evicted to stay within it.
	MemoryBudget int64
	// KeepFull is how many of a session's newest records are held in full
	// (DefaultKeepFull if 0); older ones are held as a FrameInfo, up to
	// KeepSummaries (DefaultKeepSummaries if 0), and read back from the
	// log when asked for.
	KeepFull, KeepSummaries int
	// Backlog is how many records subscribers can fall behind before they
	// skip (DefaultBacklog if 0).
	Backlog int
	// Socket is the path the hub listens on: "" for the state
	// directory's hub.sock, NoSocket for none.
	Socket string
	// PollInterval is how often the sessions folder and growing logs are
	// checked (DefaultPollInterval if 0).
	PollInterval time.Duration
	// SparkSeconds is the length of SessionInfo.Activity
	// (DefaultSparkSeconds if 0).
	SparkSeconds int
	// Now is the clock for Activity (default time.Now).
	Now func() time.Time
}

// A Hub gathers the records of every session: live from proxies over the
// socket, and from the session logs (history at start, logs created or
// grown later, and records a proxy had to drop from its feed). Ingest
// never waits for consumers: they pull batches with a Subscription and
// query Sessions, Index and Records. All methods are safe for concurrent
// use.
type Hub struct {
	opts   Options
	ln     net.Listener
	sock   string
	ctx    context.Context
	cancel context.CancelFunc
	closed chan struct{}
	wg     sync.WaitGroup
	poke   chan struct{}

	mu       sync.Mutex
	isClosed bool
	sessions map[string]*sessState
	backlog  ring[*session.Record]
	total    uint64
	dups     uint64
	evicted  uint64
	mem      int64
	feeds    int
	wake     chan struct{}
	intern   interner
	conns    map[net.Conn]struct{}
	problems map[string]int64 // per log path

	files *tracker // owned by the poller goroutine after New
}

// New starts a hub: it listens on the socket, reads the newest History
// logs, and then keeps watching. Close stops it. When another hub answers
// on the socket, New fails with ErrHubRunning; a stale socket file is
// removed.
func New(ctx context.Context, opts Options) (*Hub, error) {
	if opts.History < 0 {
		return nil, fmt.Errorf("history %d: must be 0 (all) or more", opts.History)
	}
	if opts.MemoryBudget <= 0 {
		opts.MemoryBudget = DefaultMemoryBudget
	}
	if opts.KeepFull <= 0 {
		opts.KeepFull = DefaultKeepFull
	}
	if opts.KeepSummaries <= 0 {
		opts.KeepSummaries = DefaultKeepSummaries
	}
	if opts.Backlog <= 0 {
		opts.Backlog = DefaultBacklog
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = DefaultPollInterval
	}
	if opts.SparkSeconds <= 0 {
		opts.SparkSeconds = DefaultSparkSeconds
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := &Hub{
		opts: opts, closed: make(chan struct{}), poke: make(chan struct{}, 1),
		sessions: map[string]*sessState{}, intern: interner{m: map[string]string{}},
		conns: map[net.Conn]struct{}{}, problems: map[string]int64{},
	}
	h.ctx, h.cancel = context.WithCancel(context.WithoutCancel(ctx))
	sessionsDir := ""
	if opts.StateDir != "" {
		sessionsDir = session.Layout{Root: opts.StateDir}.Sessions()
	}
	h.files = newTracker(h, sessionsDir)

	if opts.Socket != NoSocket {
		sock := opts.Socket
		if sock == "" {
			if opts.StateDir == "" {
				return nil, errors.New("hub: no state directory and no socket")
			}
			sock = feed.SocketPath(opts.StateDir)
		}
		ln, err := listen(sock)
		if err != nil {
			return nil, err
		}
		h.ln, h.sock = ln, sock
	}
	// Listen first so that proxies connect while history is read; dedup
	// by (session, seq) makes the order of the two irrelevant.
	if h.ln != nil {
		h.wg.Add(1)
		go h.accept()
	}
	if err := h.files.backfill(opts.History); err != nil {
		h.Close()
		return nil, err
	}
	h.wg.Add(1)
	go h.poll()
	if ctx.Done() != nil {
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			select {
			case <-ctx.Done():
				go h.Close()
			case <-h.closed:
			}
		}()
	}
	return h, nil
}

// Socket returns the path the hub listens on ("" for none).
func (h *Hub) Socket() string { return h.sock }

// listen makes the socket: the directory 0700 (the socket is how records,
// secrets included, reach the hub), a stale socket file removed, a live
// hub refused.
func listen(sock string) (net.Listener, error) {
	if err := feed.CheckSocketPath(sock); err != nil {
		return nil, fmt.Errorf("hub: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		return nil, fmt.Errorf("hub: create socket directory: %w", err)
	}
	// Neither a planted socket nor a directory others may write to.
	if err := feed.CheckOwner(sock); err != nil {
		return nil, fault.Input(fmt.Errorf("hub: %w", err))
	}
	if _, err := os.Lstat(sock); err == nil {
		if c, err := net.DialTimeout("unix", sock, time.Second); err == nil {
			e := &RunningError{Socket: sock}
			holderOf(c, e)
			c.Close()
			return nil, e
		}
		if err := os.Remove(sock); err != nil {
			return nil, fmt.Errorf("hub: remove stale socket: %w", err)
		}
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("hub: listen on %s: %w", sock, err)
	}
	// Closing the listener removes the file.
	ln.(*net.UnixListener).SetUnlinkOnClose(true)
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("hub: %w", err)
	}
	return ln, nil
}

// Close stops listening, closes every feed connection and stops the
// poller; it returns when all of the hub's goroutines have ended.
// Subscriptions then return ErrClosed.
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.isClosed {
		h.mu.Unlock()
		h.wg.Wait()
		return nil
	}
	h.isClosed = true
	close(h.closed)
	for c := range h.conns {
		c.Close()
	}
	h.mu.Unlock()
	h.cancel()
	var err error
	if h.ln != nil {
		err = h.ln.Close()
	}
	h.wg.Wait()
	return err
}

func (h *Hub) accept() {
	defer h.wg.Done()
	for {
		c, err := h.ln.Accept()
		if err != nil {
			return // closed
		}
		h.mu.Lock()
		if h.isClosed {
			h.mu.Unlock()
			c.Close()
			return
		}
		h.conns[c] = struct{}{}
		h.wg.Add(1)
		h.mu.Unlock()
		go h.serveFeed(c)
	}
}

// serveFeed reads one proxy's feed: a hello, then records and gap
// reports. Records are ingested as they arrive; gaps are read back from
// the log by the poller.
func (h *Hub) serveFeed(c net.Conn) {
	defer h.wg.Done()
	defer func() {
		c.Close()
		h.mu.Lock()
		delete(h.conns, c)
		h.mu.Unlock()
	}()
	r := session.NewReader(c)
	first, err := r.Next()
	if err != nil || first.Kind != feed.KindHello {
		return // not a feed
	}
	hello, err := feed.ParseControl(first)
	if err != nil {
		return
	}
	id := first.Session
	log := h.feedReport(id, first.Label, hello, true)
	h.files.want(log)
	defer func() {
		h.feedGone(id)
		h.files.want(log)
	}()
	batch := make([]*session.Record, 1)
	for {
		rec, err := r.Next()
		if err != nil {
			return // EOF: the proxy stopped; anything else: it broke
		}
		if feed.IsControl(rec) {
			if g, err := feed.ParseControl(rec); err == nil {
				log = h.feedReport(id, rec.Label, g, false)
				h.files.want(log)
			}
			continue
		}
		batch[0] = rec
		h.ingest(batch, log)
	}
}
