// Package tui is the live terminal UI of `mcpward ui`: a bubbletea v2 root
// model laid out after soft-serve (common.Common, pages, components,
// keymap and styles packages).
//
// # Layout
//
// The root model (tui.go: state, Update, render) routes messages and
// composes the screen; keys.go holds global keys, the filter and the
// palette's commands; overlay.go fills the overlay layer
// (pages/overlays.Model: inspector, capabilities, summary, help, replay)
// from the store and the pages; commands.go the
// tea.Cmds that do I/O (copy, export, delete). What is drawn lives below
// it: components/header (header and prompt lines), components/footer,
// components/palette, components/table and components/textview are
// widgets that know no page; pages/sessions and pages/stream are the
// screens, pages/overlays the overlay layer and its content; format holds the row
// cells both the stream and the overlays show, so that no page imports
// another. internal/arch enforces these directions.
//
// Ingest is decoupled from rendering: waitCmd blocks on Source.Next inside
// a tea.Cmd and returns one FramesMsg per coalesced batch, then is issued
// again; the store is updated in Update, but the screen is rebuilt only on
// a tick (at most Options.FPS times a second) and View returns the cached
// frame otherwise, so a burst of records never costs a render each
// (mcpsnoop rendered after every record). Records are owned by the
// source (the hub's MemoryBudget bounds them); the store keeps derived
// rows with a weak reference to their record, and the inspector, copy and
// replay read a record the source let go back from it in a tea.Cmd.
//
// Drift marks: each complete tools/list is compared once with the stored
// baseline of its server identity, in a tea.Cmd through
// Options.Baseline, and the sessions table marks drift or an unusable
// baseline with "! label". The live view over the hub is given
// Options.Trust instead: a server identity without a baseline gets its
// first complete tool list recorded (trust on first use, as mcpsnoop
// did). Difference from mcpsnoop: its TUI did that for any log, so merely
// opening someone else's log (`open`) trusted its tools; a log opened as
// a file here (`mcpward ui FILE`) is only read against baselines.
package tui
