// Package filter is the stream filter language of the session views (the
// HTML export and the terminal UI): space-separated terms, all of which
// must match a row.
//
//	tool:get_weather status:error
//	id:7 dir:c2s kind:request
//	method:tools/ status:404 "exact phrase"
//
// Keys: tool:/t: (substring of the tool name), method:/m: (substring of
// the method), id: (exact raw JSON id, with or without the quotes of a
// string id; the MRTR root id matches too), task: (exact task id),
// dir:/d:, kind:/k: and status:/s: (a number is an HTTP status). A term
// with an unknown key, or with an empty value, is a plain substring. Bare
// text matches case-insensitively in the method, id, tool, task and raw
// text of a row.
//
// The HTML export carries a JavaScript copy of [Parse] and [Query.Match];
// a test runs both over the same table of cases, so they agree.
//
// The package is pure (no I/O) so the terminal UI, the HTML export and a
// WebAssembly build share it.
package filter
