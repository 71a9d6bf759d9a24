// Package header renders the live view's top two lines: the header (brand,
// breadcrumb, the filter in force, follow mode, live/paused/source state)
// and the prompt under it (the filter or palette being typed, or the
// intro line). The root model fills in a State; header knows no page.
package header

import (
	"strings"

	"github.com/mcpward/mcpward/internal/tui/common"
)

// State is what the header shows.
type State struct {
	// Crumb is the breadcrumb ("sessions", "sessions › label", or
	// "label (i/n)" on a narrow screen).
	Crumb string
	// Filter is the filter in force, shown while it is not being typed.
	Filter string
	Follow bool
	Paused bool
	// SrcErr is the error that ended the source, if any.
	SrcErr error
	// Done: the source delivered everything it will (finished logs), so
	// nothing is live.
	Done bool
}

// View renders the header line.
func View(c common.Common, s State) string {
	st := c.Styles
	parts := []string{st.Brand.Render("▍mcpward"), st.Crumb.Render(s.Crumb)}
	if s.Filter != "" {
		parts = append(parts, st.FilterText.Render("filter: "+s.Filter))
	}
	if s.Follow {
		parts = append(parts, st.Follow.Render("⇣ follow"))
	}
	switch {
	case s.Paused:
		parts = append(parts, st.Paused.Render("● paused"))
	case s.SrcErr != nil:
		parts = append(parts, st.Err.Render("● source: "+s.SrcErr.Error()))
	case s.Done:
		parts = append(parts, st.Faint.Render("○ recorded"))
	default:
		parts = append(parts, st.Live.Render("● live"))
	}
	return strings.Join(parts, "  ")
}

// Input is what is being typed on the prompt line.
type Input int

// Kinds of Input.
const (
	InputNone    Input = iota
	InputFilter        // "/"
	InputPalette       // ":"
)

// Prompt renders the line under the header: the text being typed after
// its sigil, else the intro line (faint), else nothing.
func Prompt(c common.Common, in Input, text, intro string) string {
	st := c.Styles
	switch in {
	case InputFilter:
		return st.FilterText.Render("/" + text + "▏")
	case InputPalette:
		return st.FilterText.Render(":" + text + "▏")
	}
	if intro != "" {
		return st.Faint.Render(intro)
	}
	return ""
}
