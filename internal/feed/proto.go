package feed

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// SocketName is the hub socket's file name in the state directory.
const SocketName = "hub.sock"

// MaxSocketPath is the longest socket path accepted, in bytes. sun_path
// holds 108 bytes on Linux and 104 on macOS and the BSDs, NUL included;
// 103 works everywhere, so a state directory that is fine on one machine
// is not silently refused on another.
const MaxSocketPath = 103

// Control record kinds (Record.Kind of a seq 0 meta record).
const (
	KindHello = "feed-hello"
	KindGap   = "feed-gap"
)

// SocketPath returns the hub socket in stateDir (session.StateDir).
func SocketPath(stateDir string) string { return filepath.Join(stateDir, SocketName) }

// CheckSocketPath reports why path cannot be a Unix socket address.
func CheckSocketPath(path string) error {
	if len(path) > MaxSocketPath {
		return fmt.Errorf("socket path %s is %d bytes, at most %d work on every OS (set MCPWARD_HOME to a shorter directory)", path, len(path), MaxSocketPath)
	}
	return nil
}

// A Range is an inclusive range of seq numbers. It is written as a JSON
// array [from, to].
type Range struct{ From, To uint64 }

// Len is the number of seqs in r.
func (r Range) Len() uint64 {
	if r.To < r.From {
		return 0
	}
	return r.To - r.From + 1
}

// MarshalJSON writes [from, to].
func (r Range) MarshalJSON() ([]byte, error) {
	return json.Marshal([2]uint64{r.From, r.To})
}

// UnmarshalJSON reads [from, to].
func (r *Range) UnmarshalJSON(b []byte) error {
	var a [2]uint64
	if err := json.Unmarshal(b, &a); err != nil {
		return fmt.Errorf("seq range: %w", err)
	}
	if a[0] == 0 || a[1] < a[0] {
		return fmt.Errorf("seq range [%d,%d] is empty or starts at 0", a[0], a[1])
	}
	r.From, r.To = a[0], a[1]
	return nil
}

// Hello is the info of a control record. On a hello every member may be
// set; on a gap only Missed.
type Hello struct {
	// Log is the absolute path of the session log the records are also
	// written to ("" if none: dropped records cannot be recovered).
	Log string `json:"log,omitempty"`
	// PID is the proxy's process id.
	PID int `json:"pid,omitempty"`
	// Next is the seq of the first record this connection will carry
	// after the hello: every lower seq is either in the hub already or in
	// the log (the hub re-reads what it lacks).
	Next uint64 `json:"next,omitempty"`
	// Missed are the ranges dropped from the feed and not yet reported.
	Missed []Range `json:"missed,omitempty"`
}

// MissedCount is the number of seqs in h.Missed.
func (h *Hello) MissedCount() uint64 {
	var n uint64
	for _, r := range h.Missed {
		n += r.Len()
	}
	return n
}

var errNotControl = errors.New("not a feed control record")

// AppendControl appends a control record (seq 0, dir meta) of the given
// kind to dst, encoded like every other record.
func AppendControl(dst []byte, kind, sess, label string, now time.Time, h *Hello) []byte {
	info, _ := json.Marshal(h) // a struct of strings and numbers cannot fail
	return session.AppendRecord(dst, &session.Record{
		Session: sess, Label: label, Time: now, Dir: session.Meta, Kind: kind, Info: info,
	})
}

// IsControl reports whether rec is a feed control record.
func IsControl(rec *session.Record) bool { return rec.Seq == 0 && rec.Dir == session.Meta }

// ParseControl returns the Hello of a control record.
func ParseControl(rec *session.Record) (*Hello, error) {
	if !IsControl(rec) || (rec.Kind != KindHello && rec.Kind != KindGap) {
		return nil, errNotControl
	}
	var h Hello
	if len(rec.Info) > 0 {
		if err := json.Unmarshal(rec.Info, &h); err != nil {
			return nil, fmt.Errorf("feed %s record: %w", rec.Kind, err)
		}
	}
	return &h, nil
}
