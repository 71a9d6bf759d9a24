package keymap

import "charm.land/bubbles/v2/key"

// KeyMap holds the bindings. The same KeyMap feeds the help overlay.
type KeyMap struct {
	Up, Down, Top, Bottom, PageDown, PageUp key.Binding
	Enter, Back, PrevSession, NextSession   key.Binding
	Filter, Palette, Help, Replay           key.Binding
	Caps, Summary, Pause, Follow, Copy      key.Binding
	Export, Delete, Quit, Jump, NextMatch   key.Binding
	PrevMatch                               key.Binding
	// Session sorts (shift letters in the sessions table).
	SortName, SortReq, SortResp, SortErr, SortLast key.Binding
	// Stream sorts.
	SortTime, SortMethod, SortID, SortDur, SortStatus key.Binding
}

func b(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// Default returns the standard bindings (mcpsnoop's, k9s-style).
func Default() *KeyMap {
	return &KeyMap{
		Up:          b("k/↑", "up", "k", "up"),
		Down:        b("j/↓", "down", "j", "down"),
		Top:         b("g/home", "top", "g", "home"),
		Bottom:      b("G/end", "bottom", "G", "end"),
		PageDown:    b("ctrl+f/pgdn", "page down", "ctrl+f", "pgdown"),
		PageUp:      b("ctrl+b/pgup", "page up", "ctrl+b", "pgup"),
		Enter:       b("enter", "open", "enter"),
		Back:        b("esc/q", "back (q on the sessions page quits)", "esc", "q"),
		PrevSession: b("[", "previous session", "["),
		NextSession: b("]", "next session", "]"),
		Filter:      b("/", "filter", "/"),
		Palette:     b(":", "command", ":"),
		Help:        b("?", "help", "?"),
		Replay:      b("r", "replay", "r"),
		Caps:        b("c", "capabilities", "c"),
		Summary:     b("s", "tool summary", "s"),
		Pause:       b("p", "pause", "p"),
		Follow:      b("f", "follow", "f"),
		Copy:        b("y", "copy", "y"),
		Export:      b("e", "export (pick a format)", "e"),
		Delete:      b("ctrl+d", "delete session", "ctrl+d"),
		Quit:        b("ctrl+c", "quit from anywhere", "ctrl+c"),
		Jump:        b("x", "paired frame", "x"),
		NextMatch:   b("n", "next match", "n"),
		PrevMatch:   b("N", "previous match", "N"),
		SortName:    b("N", "sort by name", "N"),
		SortReq:     b("R", "sort by requests", "R"),
		SortResp:    b("S", "sort by responses", "S"),
		SortErr:     b("E", "sort by errors", "E"),
		SortLast:    b("L", "sort by last activity", "L"),
		SortTime:    b("T", "sort by time", "T"),
		SortMethod:  b("M", "sort by method", "M"),
		SortID:      b("I", "sort by id", "I"),
		SortDur:     b("D", "sort by duration", "D"),
		SortStatus:  b("S", "sort by status", "S"),
	}
}

// Groups returns the bindings grouped for the help overlay.
func (k *KeyMap) Groups() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Top, k.Bottom, k.PageDown, k.PageUp, k.Enter, k.Back, k.PrevSession, k.NextSession},
		{k.Filter, k.Palette, k.Help, k.Replay, k.Caps, k.Summary, k.Pause, k.Follow, k.Copy, k.Export, k.Delete, k.Quit},
		{k.Jump, k.NextMatch, k.PrevMatch},
		{k.SortName, k.SortReq, k.SortResp, k.SortErr, k.SortLast},
		{k.SortTime, k.SortMethod, k.SortID, k.SortDur, k.SortStatus},
	}
}
