// Package keymap declares every key binding of the live view in one place,
// with its help text (soft-serve pkg/ui/keymap). No key strings appear in
// the components.
package keymap
