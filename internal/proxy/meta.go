package proxy

import (
	"encoding/json"
	"net/url"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// The meta records that open and close an HTTP proxy's session log, beside
// the stdio ones (metaRecord in stdio.go): one place decides what a log
// says about the proxy itself.

// HTTPStartRecord opens an HTTP proxy's log: the target, its credentials
// redacted (url.Redacted), the address the proxy listens on, the mcpward
// version and the capture order (session.OrderWire).
func HTTPStartRecord(t time.Time, target *url.URL, listen, version string) session.Record {
	info, _ := json.Marshal(startInfo{Target: target.Redacted(), Listen: listen, Version: version, Order: session.OrderWire})
	return session.Record{Time: t, Dir: session.Meta, Transport: session.HTTP, Kind: session.KindStart, Info: info}
}

// HTTPExitRecord closes an HTTP proxy's log. The proxy stopping is its
// only exit, code 0; a failure to serve is the command's error, not the
// log's.
func HTTPExitRecord(t time.Time) session.Record {
	return session.Record{Time: t, Dir: session.Meta, Transport: session.HTTP, Kind: session.KindExit, Info: json.RawMessage(`{"code":0}`)}
}
