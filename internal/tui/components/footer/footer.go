// Package footer renders the live view's bottom line: key hints on the
// left (whole hints only, "? help" kept last), and on the right the most
// urgent of a confirmation question, an error, a flash message or the
// page's counters. The root model fills in a State; footer knows no page.
package footer

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/components/table"
)

// State is what the footer shows.
type State struct {
	Bindings []key.Binding
	// Confirm is a question waiting for y/enter; it wins over the rest.
	Confirm string
	Err     error
	Flash   string
	// Status is the page's counter text.
	Status string
}

// View renders the footer line, c.Width cells wide at most.
func View(c common.Common, s State) string {
	st := c.Styles
	var hints []string
	for _, b := range s.Bindings {
		hints = append(hints, b.Help().Key+" "+b.Help().Desc)
	}
	var right string
	switch {
	case s.Confirm != "":
		right = st.Confirm.Render(s.Confirm)
	case s.Err != nil:
		right = st.Err.Render(s.Err.Error())
	case s.Flash != "":
		right = st.Flash.Render(s.Flash)
	default:
		right = st.Footer.Render(s.Status)
	}
	w := c.Width
	rw := lipgloss.Width(right)
	if rw+2 >= w {
		return ansi.Truncate(right, w, "…")
	}
	lw := w - rw - 2 // two spaces keep the hints apart from the counters
	left := st.Footer.Render(FitHints(hints, lw))
	return table.Fit(left, max(0, lw), false) + "  " + right
}

// FitHints joins as many whole hints as fit in w cells, never cutting one
// in half; when some are left out, the help hint ("? help") is kept last
// so the rest can always be found.
func FitHints(hints []string, w int) string {
	const sep, help = " · ", "? help"
	join := strings.Join(hints, sep)
	if ansi.StringWidth(join) <= w {
		return join
	}
	var tail []string
	if slices.Contains(hints, help) {
		tail = []string{help}
	}
	var kept []string
	for _, h := range hints {
		if h == help {
			continue
		}
		next := strings.Join(append(append(append([]string{}, kept...), h), tail...), sep)
		if ansi.StringWidth(next) > w {
			break
		}
		kept = append(kept, h)
	}
	out := strings.Join(append(kept, tail...), sep)
	if ansi.StringWidth(out) > w {
		return ""
	}
	return out
}
