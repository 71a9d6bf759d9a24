package proxycmd

import (
	"github.com/mcpward/mcpward/internal/export/otlp"
	liveotlp "github.com/mcpward/mcpward/internal/otlp"
)

func newExporter(opts *ProxyOptions) (*liveotlp.Exporter, error) {
	var res []otlp.Attr
	if opts.Version != "" {
		res = append(res, otlp.String("service.version", opts.Version))
	}
	return liveotlp.New(&liveotlp.Options{
		Endpoint: opts.OTLPEndpoint, Header: opts.OTLPHeader, Resource: res, ScopeVersion: opts.Version,
	})
}
