package baseline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// FormatVersion is the version of the baseline file. Version 2 keeps every
// member of a tool definition (Tool.Other); version 1 kept the named fields
// only, and is still read.
const FormatVersion = 2

// An Identity names the server a baseline belongs to.
type Identity struct {
	Label string `json:"label"`
	// Server is serverInfo.name ("" when the session never said).
	Server string `json:"server"`
	// Endpoint is the command line (stdio) or the upstream URL (HTTP).
	Endpoint string `json:"endpoint"`
}

// Key is the file name stem of the identity's baseline: the label (for
// people) and 16 hex digits of a hash over all three fields.
func (id Identity) Key() string {
	h := sha256.New()
	for _, f := range []string{id.Label, id.Server, id.Endpoint} {
		h.Write([]byte(strconv.Itoa(len(f)) + ":" + f))
	}
	label := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, id.Label)
	if len(label) > 64 {
		label = label[:64]
	}
	return label + "-" + hex.EncodeToString(h.Sum(nil))[:16]
}

// A Tool is one tool definition as the baseline keeps it: each field as
// compacted JSON, absent fields empty.
type Tool struct {
	Name         string          `json:"name"`
	Title        json.RawMessage `json:"title,omitempty"`
	Description  json.RawMessage `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Icons        json.RawMessage `json:"icons,omitempty"`
	// Other holds every other member (_meta, execution, vendor fields),
	// by name (since version 2).
	Other map[string]json.RawMessage `json:"other,omitempty"`
}

// namedFields are the members a Tool keeps in fields of their own.
var namedFields = map[string]bool{"name": true, "title": true, "description": true,
	"inputSchema": true, "outputSchema": true, "annotations": true, "icons": true}

// A Baseline is the trusted tool list of one server identity.
type Baseline struct {
	Version  int      `json:"version"`
	Identity Identity `json:"identity"`
	// RecordedAt is when it was accepted (RFC 3339); Source names the log.
	RecordedAt string `json:"recordedAt,omitempty"`
	Source     string `json:"source,omitempty"`
	// SourceStart is when the session the tools came from started (RFC
	// 3339 with nanoseconds): a session that started before it predates
	// the baseline (see Predates).
	SourceStart string `json:"sourceStart,omitempty"`
	// Unverified names the tool members the baseline did not record
	// (title, outputSchema, annotations, icons for a version 1 mcpsnoop
	// baseline): they are left out of the comparison on both sides, so
	// that what was never recorded is not reported as drift.
	Unverified []string `json:"unverified,omitempty"`
	Tools      []Tool   `json:"tools"`
}

// SetSource records the session the baseline's tools come from and when it
// started.
func (b *Baseline) SetSource(session string, start time.Time) {
	b.Source = session
	if !start.IsZero() {
		b.SourceStart = start.UTC().Format(time.RFC3339Nano)
	}
}

// sourceStart is when the baseline's source session started: SourceStart,
// or for a baseline written before that was recorded, the time in its
// source's session id.
func (b *Baseline) sourceStart() (time.Time, bool) {
	if b.SourceStart != "" {
		t, err := time.Parse(time.RFC3339Nano, b.SourceStart)
		return t, err == nil
	}
	return session.IDTime(b.Source)
}

// Predates reports whether a session that started at start (with id
// sessionID) began before the session the baseline's tools come from. Its
// tools are older than the baseline's: a difference is history, not drift,
// and accepting them would put older tools over newer ones. A baseline that
// does not say when its source started predates nothing.
func (b *Baseline) Predates(sessionID string, start time.Time) bool {
	if b == nil || start.IsZero() || sessionID == b.Source {
		return false
	}
	t, ok := b.sourceStart()
	return ok && start.Before(t)
}

// PredatesNote says why a session that Predates the baseline is not
// compared with it: "session A started 2026-08-01T12:00:00Z, before
// session B (2026-08-02T12:00:00Z), whose tools the baseline holds".
func (b *Baseline) PredatesNote(sessionID string, start time.Time) string {
	t, _ := b.sourceStart()
	return fmt.Sprintf("session %s started %s, before session %s (%s), whose tools the baseline holds",
		sessionID, start.UTC().Format(time.RFC3339), b.Source, t.UTC().Format(time.RFC3339))
}

// FromTools builds a baseline from raw tool definitions (a complete
// tools/list), sorted by name.
func FromTools(id Identity, defs []json.RawMessage) (*Baseline, error) {
	b := &Baseline{Version: FormatVersion, Identity: id, Tools: []Tool{}}
	for _, d := range defs {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(d, &raw); err != nil {
			return nil, fmt.Errorf("tool definition: %w", err)
		}
		var name string
		if err := json.Unmarshal(raw["name"], &name); err != nil {
			return nil, fmt.Errorf("tool definition without a string name: %s", trunc(d))
		}
		t := Tool{Name: name,
			Title: cmpct(raw["title"]), Description: cmpct(raw["description"]),
			InputSchema: cmpct(raw["inputSchema"]), OutputSchema: cmpct(raw["outputSchema"]),
			Annotations: cmpct(raw["annotations"]), Icons: cmpct(raw["icons"])}
		for k, v := range raw {
			if !namedFields[k] {
				if t.Other == nil {
					t.Other = map[string]json.RawMessage{}
				}
				t.Other[k] = cmpct(v)
			}
		}
		b.Tools = append(b.Tools, t)
	}
	slices.SortFunc(b.Tools, func(a, c Tool) int { return strings.Compare(a.Name, c.Name) })
	return b, nil
}

func trunc(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

func cmpct(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// Compare reports the drift from old to new with the snapshot diff engine
// (internal/diff): both tool lists become snapshot surfaces, so a change
// seen in traffic gets the rule id and tier `mcpward diff` gives the same
// change between two snapshots (a new required input is breaking, a new
// optional one compatible). Findings are sorted as diff.Diff sorts them.
//
// A baseline written before members outside the named fields were kept
// (version 1) is compared on the named fields only, on both sides, so
// that upgrading mcpward is not drift.
//
// Members the old baseline names in Unverified are left out on both
// sides.
func Compare(old, new *Baseline) []diff.Finding {
	full := old.Version >= 2 && new.Version >= 2
	skip := map[string]bool{}
	for _, m := range old.Unverified {
		skip[m] = true
	}
	return diff.Diff(old.surface(full, skip), new.surface(full, skip))
}

// surface returns the tools as a snapshot built from one tools/list page,
// through the same builder a probe's evidence goes through (it computes
// the x-mcp-header bindings the diff rules read). With full false, the
// members outside the named fields are left out; named fields in skip are
// left out too.
func (b *Baseline) surface(full bool, skip map[string]bool) *snapshot.Snapshot {
	var page bytes.Buffer
	page.WriteString(`{"tools":[`)
	for i, t := range b.Tools {
		if i > 0 {
			page.WriteByte(',')
		}
		members := map[string]json.RawMessage{}
		if full {
			for k, v := range t.Other {
				members[k] = v
			}
		}
		name, _ := json.Marshal(t.Name)
		members["name"] = name
		for k, v := range map[string]json.RawMessage{"title": t.Title, "description": t.Description,
			"inputSchema": t.InputSchema, "outputSchema": t.OutputSchema, "annotations": t.Annotations, "icons": t.Icons} {
			if len(v) > 0 && !skip[k] {
				members[k] = v
			}
		}
		keys := make([]string, 0, len(members))
		for k := range members {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		page.WriteByte('{')
		for j, k := range keys {
			if j > 0 {
				page.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			page.Write(kb)
			page.WriteByte(':')
			page.Write(members[k])
		}
		page.WriteByte('}')
	}
	page.WriteString(`]}`)
	ev := &snapshot.Evidence{Tools: snapshot.ListEvidence{Attempted: true, Pages: []json.RawMessage{page.Bytes()}}}
	snap, err := snapshot.Build(ev, nil)
	if err != nil {
		// Build fails only on unusable probe options, and none are given.
		return &snapshot.Snapshot{}
	}
	return snap
}

// ErrNotFound means no baseline exists for the identity yet.
var ErrNotFound = errors.New("no baseline")

// Path is the baseline file of id in dir.
func Path(dir string, id Identity) string { return filepath.Join(dir, id.Key()+".json") }

// Read loads the baseline of id from dir. Without one for the whole
// identity, a baseline keyed by the label alone (Identity{Label: id.Label},
// as converted from mcpsnoop's, which were keyed by label) is used: a
// session labelled as an imported baseline is judged against it until a
// baseline of its whole identity is recorded. A file of a newer version,
// for another identity, or not JSON is an error (not ErrNotFound).
func Read(dir string, id Identity) (*Baseline, error) {
	b, err := read(dir, id)
	if labelOnly := (Identity{Label: id.Label}); errors.Is(err, ErrNotFound) && id != labelOnly && id.Label != "" {
		if lb, lerr := read(dir, labelOnly); !errors.Is(lerr, ErrNotFound) {
			return lb, lerr
		}
	}
	return b, err
}

func read(dir string, id Identity) (*Baseline, error) {
	p := Path(dir, id)
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w for %s", ErrNotFound, p)
	}
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", p, err)
	}
	switch {
	case b.Version > FormatVersion:
		return nil, fmt.Errorf("read baseline %s: format version %d is newer than this mcpward reads (%d)", p, b.Version, FormatVersion)
	case b.Identity != id:
		return nil, fmt.Errorf("read baseline %s: it records another server (%s, %s, %s)", p, b.Identity.Label, b.Identity.Server, b.Identity.Endpoint)
	}
	return &b, nil
}

// Write stores b atomically (mode 0600, directory 0700).
func Write(dir string, b *Baseline) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	return atomicfile.Write(Path(dir, b.Identity), append(data, '\n'), 0o600)
}

// Remove deletes the baseline of id; a missing file is not an error.
func Remove(dir string, id Identity) error {
	if err := os.Remove(Path(dir, id)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove baseline: %w", err)
	}
	return nil
}
