package proxy

import (
	"net/url"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/export/otlp"
	liveotlp "github.com/mcpward/mcpward/internal/otlp"
	"github.com/mcpward/mcpward/internal/transport"
)

// otlpCloseGrace bounds how long the proxy waits at exit for the last
// spans to reach the collector.
const otlpCloseGrace = 5 * time.Second

// validateOTLP checks --otlp-endpoint and parses --otlp-header, expanding
// ${ENV} in values (an unset variable is an input error).
func (o *ProxyOptions) validateOTLP() error {
	if o.OTLPEndpoint == "" {
		if len(o.OTLPHeaders) > 0 {
			return cmdutil.FlagErrorf("--otlp-header needs --otlp-endpoint")
		}
		return nil
	}
	u, err := url.Parse(o.OTLPEndpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return cmdutil.FlagErrorf("--otlp-endpoint must be an http:// or https:// URL, got %q", o.OTLPEndpoint)
	}
	for _, kv := range o.OTLPHeaders {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t:") || strings.ContainsAny(v, "\r\n\x00") {
			return cmdutil.FlagErrorf("--otlp-header must be NAME=VALUE, got %q", kv)
		}
		lookup := o.LookupEnv
		if lookup == nil {
			lookup = func(string) (string, bool) { return "", false }
		}
		ev, err := transport.ExpandEnv(v, lookup)
		if err != nil {
			return cmdutil.FlagErrorf("--otlp-header %s: %v", k, err)
		}
		if o.OTLPHeader == nil {
			o.OTLPHeader = map[string]string{}
		}
		o.OTLPHeader[k] = ev
	}
	return nil
}

func newExporter(opts *ProxyOptions) (*liveotlp.Exporter, error) {
	var res []otlp.Attr
	if opts.Version != "" {
		res = append(res, otlp.String("service.version", opts.Version))
	}
	return liveotlp.New(&liveotlp.Options{
		Endpoint: opts.OTLPEndpoint, Header: opts.OTLPHeader, Resource: res, ScopeVersion: opts.Version,
	})
}
