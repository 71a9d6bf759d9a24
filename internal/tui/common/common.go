package common

import (
	"context"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/keymap"
	"github.com/mcpward/mcpward/internal/tui/styles"
)

// Common is passed by value to every component's constructor.
type Common struct {
	Width, Height int
	Styles        *styles.Styles
	KeyMap        *keymap.KeyMap
	// Now is the clock (ages, pending durations); time.Now by default.
	Now func() time.Time
}

// SetSize records the size.
func (c *Common) SetSize(w, h int) { c.Width, c.Height = w, h }

// A Component is a page or a widget: a tea model that renders a string and
// can be resized. Only the root returns a tea.View.
type Component interface {
	help.KeyMap
	Init() tea.Cmd
	Update(tea.Msg) (Component, tea.Cmd)
	View() string
	SetSize(w, h int)
}

// ErrorMsg carries an error to the root, which shows it in the footer.
type ErrorMsg struct{ Err error }

// ErrorCmd returns a command that reports err.
func ErrorCmd(err error) tea.Cmd { return func() tea.Msg { return ErrorMsg{err} } }

// FlashMsg shows a transient message in the footer.
type FlashMsg struct{ Text string }

// FlashCmd returns a command that flashes text.
func FlashCmd(text string) tea.Cmd { return func() tea.Msg { return FlashMsg{text} } }

// SelectSessionMsg asks the root to open a session's stream.
type SelectSessionMsg struct{ ID string }

// GoBackMsg asks the root to go back one level.
type GoBackMsg struct{}

// OpenFrameMsg asks the root to open the inspector on a frame.
type OpenFrameMsg struct {
	Session string
	Seq     uint64
	Batch   int // batch element index
}

// SessionInfo is what a Source knows about a session beyond its records.
type SessionInfo struct {
	ID, Label    string
	Transport    session.Transport
	Client       string // "name version"
	Log          string
	Live, Exited bool
	Requests     int64
	Responses    int64
	Errors       int64
	Records      int64
	Missing      int64
	First, Last  time.Time
	Activity     []int // records per second, oldest first
	InMemory     int
	Summarised   int
}

// A Batch is the records a Source delivered in one Next call.
type Batch struct {
	Records []*session.Record
	// Skipped counts records the source could not deliver in time (the
	// consumer fell behind); they are still in the source.
	Skipped uint64
}

// A Source delivers the records of every session. The UI pulls: Next is
// only called from inside a tea.Cmd, one call at a time, so a slow screen
// never slows the proxies.
type Source interface {
	// Next waits for records ingested since the previous call and returns
	// all of them (coalesced). It returns ctx.Err() when ctx is done, and
	// io.EOF once it has delivered every record it ever will (a set of
	// finished logs: nothing is live).
	Next(ctx context.Context) (Batch, error)
	// Sessions lists the sessions the source knows, with their counters.
	Sessions() []SessionInfo
	// Records returns the records of a session with from <= seq <= to (0:
	// no bound), reading older ones back from the log if needed.
	Records(sessionID string, from, to uint64) ([]*session.Record, error)
	// Delete forgets a session and removes its log.
	Delete(sessionID string) error
}

// An Exporter writes one session in a report format (json, html, text,
// har, otlp) to a file, the way `mcpward sessions export` does. Nil in
// Options means only the raw JSONL export is available.
type Exporter interface {
	Export(sessionID, format, path string) error
}

// A BaselineLoader reads the stored tool baseline of a server identity
// (baseline.Read on the state directory's baselines). It returns an error
// wrapping baseline.ErrNotFound when there is none. It only reads.
// It is called inside a tea.Cmd, possibly while another call runs.
type BaselineLoader func(baseline.Identity) (*baseline.Baseline, error)

// A BaselineTruster returns the baseline a complete tool list is judged
// against, recording the list itself when its identity has none (trust
// on first use, baseline.TrustOnFirstUse): recorded says it did. Only the
// live view over the hub is given one; a log opened as a file is never
// baselined by looking at it (mcpsnoop's open did that). It is called
// inside a tea.Cmd, possibly while another call runs.
type BaselineTruster func(cur *baseline.Baseline) (old *baseline.Baseline, recorded bool, err error)

// A Replayer re-sends one recorded request to a fresh copy of the server.
// Nil in Common means replay is unavailable.
type Replayer interface {
	Replay(ctx context.Context, rec *session.Record, start *session.Record) (ReplayResult, error)
}

// ReplayResult is what the replay overlay shows.
type ReplayResult struct {
	Request, Response []byte
	Duration          time.Duration
	Err               error
}
