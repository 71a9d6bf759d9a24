// Package wrap rewrites one server entry of an MCP client's config file so
// that the server runs through the mcpward stdio shim, and back.
//
// A wrapped entry keeps every member it had (env, type, cwd, comments in
// JSONC files) and changes only two values:
//
//	"command": "/usr/local/bin/mcpward",
//	"args": ["proxy", "--label", "weather", "--", "npx", "-y", "weather-server"]
//
// The rest of the file is not re-encoded: the entry's command and args
// values are spliced into the original bytes, so indentation, key order,
// comments, trailing commas and CRLF line endings stay as they were.
//
// The transforms ([Wrap], [Unwrap]) are pure functions over bytes. [File]
// is the small I/O layer: it follows a symlinked config to its target,
// serialises mcpward's edits of one file with an exclusive lock on
// <file>.mcpward.lock (flock on Unix; other systems rely on the next
// check alone), reads the file under that lock, writes atomically in the
// target's directory keeping the file's mode, keeps a backup
// (<file>.mcpward-backup) before the first wrap and removes it once no entry
// runs through mcpward ([BackupNeeded] says when it must stay), refuses a
// read-only file,
// and refuses to write when the file changed between read and write. Unwrap restores the backup byte
// for byte when nothing else in the file changed since the wrap, and
// otherwise splices the original entry back and keeps the other edits.
//
// An entry wrapped by mcpsnoop (command mcpsnoop, args ["--", cmd…]) is
// recognised: [Wrap] makes it run through mcpward instead of wrapping the
// shim in another (mcpsnoop's shim flags are mcpward proxy's), [Unwrap]
// gives the server's command back, and mcpsnoop's backup
// (<file>.mcpsnoop.bak) is restored when nothing else changed.
//
// [Clients] knows where Claude Desktop, Claude Code, Cursor and VS Code keep
// their servers, per scope (user or workspace).
package wrap
