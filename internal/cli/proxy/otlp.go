package proxy

import (
	"time"

	"github.com/mcpward/mcpward/internal/export/otlp"
	liveotlp "github.com/mcpward/mcpward/internal/otlp"
)

// otlpCloseGrace bounds how long the proxy waits at exit for the last
// spans to reach the collector.
const otlpCloseGrace = 5 * time.Second

func newExporter(opts *ProxyOptions) (*liveotlp.Exporter, error) {
	var res []otlp.Attr
	if opts.Version != "" {
		res = append(res, otlp.String("service.version", opts.Version))
	}
	return liveotlp.New(&liveotlp.Options{
		Endpoint: opts.OTLPEndpoint, Header: opts.OTLPHeader, Resource: res, ScopeVersion: opts.Version,
	})
}
