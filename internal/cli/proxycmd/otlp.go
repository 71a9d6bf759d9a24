package proxycmd

import (
	"github.com/mcpward/mcpward/internal/otlppush"
	"github.com/mcpward/mcpward/internal/otlpspan"
)

func newExporter(opts *ProxyOptions) (*otlppush.Exporter, error) {
	var res []otlpspan.Attr
	if opts.Version != "" {
		res = append(res, otlpspan.String("service.version", opts.Version))
	}
	return otlppush.New(&otlppush.Options{
		Endpoint: opts.OTLPEndpoint, Header: opts.OTLPHeader, Resource: res, ScopeVersion: opts.Version,
	})
}
