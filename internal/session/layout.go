package session

import "path/filepath"

// Layout is where things live in mcpward's state directory (see
// [StateDir]): the one place its folder names are joined.
//
//	<Root>/sessions/<label>-<id>.jsonl   session logs (mcpward proxy)
//	<Root>/baselines/                    tool-list baselines (sessions baseline)
//	<Root>/exports/                      exports from the live view
type Layout struct {
	Root string
}

// Sessions is the folder of the session logs.
func (l Layout) Sessions() string { return filepath.Join(l.Root, "sessions") }

// Log is the log file of a session: Sessions()/<label>-<id>.jsonl.
func (l Layout) Log(label, id string) string { return filepath.Join(l.Sessions(), FileName(label, id)) }

// Baselines is the folder of the recorded baselines.
func (l Layout) Baselines() string { return filepath.Join(l.Root, "baselines") }

// Exports is the folder the live view exports sessions into.
func (l Layout) Exports() string { return filepath.Join(l.Root, "exports") }
