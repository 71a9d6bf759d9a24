// Package overlays builds the content of the overlay panels: the frame
// inspector, capabilities, tool summary, replay result and help. Each is a
// pure function of the store's state, rebuilt on every refresh while open
// (live), and shown in a components/textview panel held by [Model], the
// overlay layer (which overlay is open, the inspected frame, the replay's
// state). It does not import another page: the row cells it shares with
// the stream page are in tui/format.
package overlays
