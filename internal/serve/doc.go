// Package serve is the web app of `mcpward serve`: the recorded sessions
// (live from the hub, as `mcpward ui` sees them) with the session report's
// filter language, the repository's snapshots and a diff of any two, saved
// compat results with their verdict grid, and the board, from assets
// embedded in the binary (plain JavaScript and CSS, nothing fetched from
// elsewhere, no build step).
//
// The app is read-only: only GET and HEAD are answered, except POST
// /api/check in public mode ([Options.Check]), which runs the board's
// read-only probes against a public HTTPS URL under the board's address
// policy, behind per-client and global rate limits, a concurrency cap, a
// time limit per check and a short result cache.
//
// Every response carries a strict Content-Security-Policy (scripts and
// styles only from the app itself: no inline script, no eval) and
// X-Content-Type-Options: nosniff. Requests whose Host is not the address
// the app listens on (or a loopback name with its port, or an allowed
// name) and requests whose Origin is not the app's own are refused, so a
// web page elsewhere cannot reach the app by DNS rebinding (package
// hostguard, which the HTTP proxy's guard shares). The session page is
// the HTML session report's stream, filter and style, served from
// package html as /assets/stream.js, filter.js and report.css. The page puts
// every recorded or server-provided string in the document as text.
//
//	srv, err := serve.New(&serve.Options{Hub: h, SnapshotDir: ".mcpward"})
//	http.Serve(ln, srv)
package serve
