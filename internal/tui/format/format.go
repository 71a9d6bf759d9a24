// Package format renders the cells of a frame row that the stream page
// and the overlays share: direction glyph, duration with a pending
// spinner, compact durations, detail text and progress bar. It sits
// below both so that neither page imports the other.
package format

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/store"
)

// Glyph is a row's direction mark.
func Glyph(r *store.Row) string {
	switch r.Kind {
	case calls.KindStderr:
		return "┆"
	case calls.KindInvalid:
		return "!"
	case calls.KindMeta, calls.KindTransport:
		return "?"
	case calls.KindNotification:
		return "·"
	}
	if r.Dir == session.ServerToClient {
		return "←"
	}
	return "→"
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Duration is the DUR column: the call's duration on its request and
// response rows, a spinner and the elapsed time while it is pending, and
// nothing for a call its ended session never answered (no spinner that
// runs for ever).
func Duration(r *store.Row, now time.Time) string {
	if r.Call == nil || (r.Kind != calls.KindRequest && r.Kind != calls.KindResponse) {
		return ""
	}
	if r.Unanswered() {
		return "–"
	}
	if r.Call.State.Open() {
		if r.Kind != calls.KindRequest || r.Call.State == calls.Streaming {
			return ""
		}
		el := now.Sub(r.Call.Start)
		return spinner[int(now.UnixMilli()/100)%len(spinner)] + " " + Dur(el)
	}
	return Dur(r.Call.Duration())
}

// Unanswered is what a call an ended session never answered is called.
const Unanswered = "unanswered (session ended)"

// Dur formats a duration compactly (850µs, 12ms, 1.4s, 2m3s).
func Dur(d time.Duration) string {
	switch {
	case d <= 0:
		return "0"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Truncate(time.Second).String()
}

// Detail is the DETAIL column: warnings, progress bar, HTTP status and
// the compact params, result or error.
func Detail(r *store.Row) string {
	var parts []string
	if r.Unanswered() {
		parts = append(parts, Unanswered)
	}
	if w := store.Warning(r); w != "" {
		parts = append(parts, "⚠ "+w)
	}
	if r.Observation != "" {
		parts = append(parts, "↻ "+r.Observation)
	}
	if r.Notes&calls.NoteRetry != 0 && r.Call != nil {
		parts = append(parts, "continues id "+r.Call.ID)
	}
	if r.Call != nil && r.Call.TaskID != "" && r.Kind != calls.KindRequest {
		parts = append(parts, "task "+r.Call.TaskID+" → "+r.Call.Method+" id "+r.Call.ID)
	}
	if r.HasProgress {
		parts = append(parts, Bar(r.Progress, r.Total))
	}
	if r.HTTPStatus != 0 && (r.Kind == calls.KindTransport || r.HTTPStatus >= 400) {
		parts = append(parts, fmt.Sprintf("http %d", r.HTTPStatus))
	}
	if r.Detail != "" {
		parts = append(parts, r.Detail)
	}
	return strings.Join(parts, " · ")
}

// Bar renders progress as ━━──  n/total.
func Bar(v, total float64) string {
	if total <= 0 {
		return fmt.Sprintf("%g", v)
	}
	const w = 10
	f := int(min(1, max(0, v/total)) * w)
	return strings.Repeat("━", f) + strings.Repeat("─", w-f) + fmt.Sprintf(" %g/%g", v, total)
}
