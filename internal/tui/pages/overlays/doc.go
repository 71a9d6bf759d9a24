// Package overlays builds the content of the overlay panels: the frame
// inspector, capabilities, tool summary, replay result and help. Each is a
// pure function of the store's state, rebuilt on every refresh while open
// (live), and shown in a components/textview panel by the root.
package overlays
