package styles

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles are the styles of every part of the UI. Components take them
// from common.Common and never build colours inline.
type Styles struct {
	NoColor bool

	Brand, Crumb, Live, Paused, Follow, FilterText lipgloss.Style
	Header, Footer, Flash, Confirm                 lipgloss.Style
	TableHeader, Selected, Faint, Bright           lipgloss.Style
	Err, Warn, OK, Pending                         lipgloss.Style
	Overlay, OverlayTitle, LineNo, Match           lipgloss.Style
	JSONKey, JSONString, JSONNumber, JSONLiteral   lipgloss.Style
	Spark                                          lipgloss.Style
}

type palette struct {
	accent, fg, faint, err, warn, ok, pending, sel, key, str, num, lit color.Color
}

var dark = palette{
	accent: lipgloss.Color("#7D56F4"), fg: lipgloss.Color("#E4E4E4"), faint: lipgloss.Color("#6C6C6C"),
	err: lipgloss.Color("#FF5F5F"), warn: lipgloss.Color("#FFAF00"), ok: lipgloss.Color("#5FD787"),
	pending: lipgloss.Color("#5FAFFF"), sel: lipgloss.Color("#3A3A5A"), key: lipgloss.Color("#87AFFF"),
	str: lipgloss.Color("#AFD787"), num: lipgloss.Color("#FFD787"), lit: lipgloss.Color("#D787FF"),
}

var light = palette{
	accent: lipgloss.Color("#5A3FC0"), fg: lipgloss.Color("#1C1C1C"), faint: lipgloss.Color("#8A8A8A"),
	err: lipgloss.Color("#C00000"), warn: lipgloss.Color("#AF5F00"), ok: lipgloss.Color("#008700"),
	pending: lipgloss.Color("#005FAF"), sel: lipgloss.Color("#DADAFF"), key: lipgloss.Color("#005F87"),
	str: lipgloss.Color("#5F8700"), num: lipgloss.Color("#875F00"), lit: lipgloss.Color("#870087"),
}

// New returns the styles for a dark or light background; noColor gives
// the plain set (bold, faint, reverse only).
func New(isDark, noColor bool) *Styles {
	if noColor {
		return plain()
	}
	p := light
	if isDark {
		p = dark
	}
	s := lipgloss.NewStyle
	return &Styles{
		Brand:        s().Bold(true).Foreground(p.accent),
		Crumb:        s().Foreground(p.fg),
		Live:         s().Foreground(p.ok),
		Paused:       s().Foreground(p.warn),
		Follow:       s().Foreground(p.pending),
		FilterText:   s().Foreground(p.key),
		Header:       s(),
		Footer:       s().Foreground(p.faint),
		Flash:        s().Foreground(p.ok),
		Confirm:      s().Bold(true).Foreground(p.err),
		TableHeader:  s().Bold(true).Foreground(p.faint),
		Selected:     s().Background(p.sel).Bold(true),
		Faint:        s().Foreground(p.faint),
		Bright:       s().Bold(true).Foreground(p.fg),
		Err:          s().Foreground(p.err),
		Warn:         s().Foreground(p.warn),
		OK:           s().Foreground(p.ok),
		Pending:      s().Foreground(p.pending),
		Overlay:      s().Border(lipgloss.RoundedBorder()).BorderForeground(p.accent).Padding(0, 1),
		OverlayTitle: s().Bold(true).Foreground(p.accent),
		LineNo:       s().Foreground(p.faint),
		Match:        s().Reverse(true),
		JSONKey:      s().Foreground(p.key),
		JSONString:   s().Foreground(p.str),
		JSONNumber:   s().Foreground(p.num),
		JSONLiteral:  s().Foreground(p.lit),
		Spark:        s().Foreground(p.pending),
	}
}

func plain() *Styles {
	s := lipgloss.NewStyle
	n := s()
	return &Styles{
		NoColor: true,
		Brand:   s().Bold(true), Crumb: n, Live: n, Paused: s().Bold(true), Follow: n, FilterText: s().Underline(true),
		Header: n, Footer: n, Flash: s().Bold(true), Confirm: s().Bold(true),
		TableHeader: s().Bold(true), Selected: s().Reverse(true), Faint: s().Faint(true), Bright: s().Bold(true),
		Err: s().Bold(true), Warn: n, OK: n, Pending: n,
		Overlay: s().Border(lipgloss.NormalBorder()).Padding(0, 1), OverlayTitle: s().Bold(true), LineNo: s().Faint(true),
		Match: s().Reverse(true), JSONKey: n, JSONString: n, JSONNumber: n, JSONLiteral: n, Spark: n,
	}
}
