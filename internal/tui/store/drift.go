package store

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/scan"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/tui/common"
)

// A Drift is how a session's latest complete tools/list compares with the
// stored baseline of its server identity. Only drift and an unusable
// baseline mark a session; no baseline marks nothing.
type Drift struct {
	// Checked is set once a complete listing was compared.
	Checked bool
	// Found is set when a baseline exists for the identity, even one that
	// could not be read.
	Found bool
	// Findings are the changes since the baseline (baseline.Compare).
	Findings []diff.Finding
	// Err is why the listing could not be compared with the baseline: the
	// file is corrupt, of a newer format, or records another server.
	Err error
	// Recorded is set when this listing became the baseline (trust on
	// first use): nothing to compare yet.
	Recorded bool
	// Predates says why the listing was not compared: the session started
	// before the baseline's source session (a newer one was accepted), so
	// its tools are history, not drift ("" otherwise).
	Predates string
	// Scan are the scan rules' findings on the listing (ScanTools), with
	// or without a baseline: what the traffic checker reports on it.
	Scan []scan.Finding
}

// Drifted reports whether the tools differ from the baseline (the yellow
// "! label" mark).
func (d Drift) Drifted() bool { return d.Err == nil && len(d.Findings) > 0 }

// Failed reports whether the baseline could not be used (the red mark).
func (d Drift) Failed() bool { return d.Err != nil }

// A DriftCheck is one complete tools/list to compare with its baseline:
// everything the comparison needs, copied out of the store so that it can
// run inside a tea.Cmd while the store keeps changing.
type DriftCheck struct {
	Session string
	// Start is when the session started.
	Start    time.Time
	Gen      int // the session's listing generation (see [Store.SetDrift])
	Identity baseline.Identity
	Tools    []json.RawMessage
}

// CheckDrift compares the check's tools with the baseline load returns for
// its identity. It never writes one: without a baseline nothing is marked.
func CheckDrift(c DriftCheck, load common.BaselineLoader) Drift {
	old, err := load(c.Identity)
	switch {
	case errors.Is(err, baseline.ErrNotFound):
		return Drift{Checked: true}
	case err != nil:
		return Drift{Checked: true, Found: true, Err: err}
	}
	cur, err := baseline.FromTools(c.Identity, c.Tools)
	if err != nil {
		return Drift{Checked: true, Found: true, Err: err}
	}
	return compare(c, old, cur)
}

// compare is the drift of cur from old, or none when c's session predates
// old.
func compare(c DriftCheck, old, cur *baseline.Baseline) Drift {
	if old.Predates(c.Session, c.Start) {
		return Drift{Checked: true, Found: true, Predates: old.PredatesNote(c.Session, c.Start)}
	}
	return Drift{Checked: true, Found: true, Findings: baseline.Compare(old, cur)}
}

// ScanTools applies the scan rules to the check's tools, as the traffic
// checker does to every tools/list (scan.Tools, the server unnamed).
func ScanTools(c DriftCheck) []scan.Finding {
	defs := make([]snapshot.Object, 0, len(c.Tools))
	for _, raw := range c.Tools {
		var o snapshot.Object
		if json.Unmarshal(raw, &o) == nil {
			defs = append(defs, o)
		}
	}
	return scan.Tools("", defs)
}

// TrustDrift is CheckDrift with trust on first use: without a baseline
// for the check's identity, its tools are recorded as one (Recorded) and
// show no drift; later listings are compared with it.
func TrustDrift(c DriftCheck, trust common.BaselineTruster) Drift {
	cur, err := baseline.FromTools(c.Identity, c.Tools)
	if err != nil {
		return Drift{Checked: true, Err: err}
	}
	cur.SetSource(c.Session, c.Start)
	old, recorded, err := trust(cur)
	switch {
	case err != nil:
		return Drift{Checked: true, Found: true, Err: err}
	case recorded:
		return Drift{Checked: true, Found: true, Recorded: true}
	}
	return compare(c, old, cur)
}

// DriftChecks returns a check for each session whose tools/list was seen
// complete (its final page, without nextCursor) since the previous call,
// once per session however many listings arrived in between.
func (s *Store) DriftChecks() []DriftCheck {
	if len(s.relisted) == 0 {
		return nil
	}
	var out []DriftCheck
	for id := range s.relisted {
		ss := s.sessions[id]
		if ss == nil {
			continue
		}
		c, ok := s.calls.Session(id)
		if !ok {
			continue
		}
		defs, complete := c.Tools()
		if !complete {
			continue
		}
		label, server, endpoint := c.Identity()
		chk := DriftCheck{Session: id, Start: c.Start, Gen: ss.listGen,
			Identity: baseline.Identity{Label: label, Server: server, Endpoint: endpoint},
			Tools:    make([]json.RawMessage, len(defs))}
		for i, d := range defs {
			chk.Tools[i] = d.Raw
		}
		out = append(out, chk)
	}
	clear(s.relisted)
	slices.SortFunc(out, func(a, b DriftCheck) int { return strings.Compare(a.Session, b.Session) })
	return out
}

// SetDrift records the outcome of a check. A result for an older listing
// than the session's latest is dropped: the newer one's check is on its
// way.
func (s *Store) SetDrift(id string, gen int, d Drift) {
	if ss := s.sessions[id]; ss != nil && gen == ss.listGen {
		ss.Drift = d
	}
}
