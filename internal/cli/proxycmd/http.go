package proxycmd

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/session"
)

// httpRun runs the HTTP reverse proxy until the context ends (SIGINT or
// SIGTERM), then shuts it down and exits 0.
func httpRun(ctx context.Context, opts *ProxyOptions) error {
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return fault.Input(fmt.Errorf("listen on %s: %w", opts.Listen, err))
	}
	defer ln.Close()
	return serveHTTP(ctx, opts, ln, nil)
}

// serveHTTP is httpRun on a listener; so (nil for the defaults) sets the
// server's timeouts for tests.
func serveHTTP(ctx context.Context, opts *ProxyOptions, ln net.Listener, so *proxy.ServeOptions) error {
	label := opts.Label
	if label == "" {
		label = session.LabelForHost(opts.Target.Host)
	}
	lg, path, err := openLog(opts, label)
	if err != nil {
		return err
	}
	var rec proxy.Recorder
	if lg != nil {
		rec = lg
		lg.Record(proxy.HTTPStartRecord(opts.Now(), opts.Target, ln.Addr().String(), opts.Version))
	}
	scheme := "http"
	if opts.TLSCert != "" {
		scheme = "https"
	}
	fmt.Fprintf(opts.IO.ErrOut, "mcpward: proxying %s://%s%s to %s\n", scheme, ln.Addr(), opts.Target.RequestURI(), bannerTarget(opts.Target))
	if path != "" {
		fmt.Fprintf(opts.IO.ErrOut, "mcpward: recording to %s\n", path)
	}
	if opts.ConfigPath != "" {
		fmt.Fprintf(opts.IO.ErrOut, "mcpward: settings from %s\n", opts.ConfigPath)
	}
	// On a loopback listener the proxy refuses foreign Host and Origin
	// headers (DNS rebinding); on the network (--allow-remote) clients
	// reach it by names it cannot know.
	loopback := false
	if ta, ok := ln.Addr().(*net.TCPAddr); ok {
		loopback = ta.IP.IsLoopback()
	}
	h := proxy.NewHTTPProxy(&proxy.HTTPOptions{Target: opts.Target, Recorder: rec, Now: opts.Now, Loopback: loopback, AllowHosts: opts.AllowHosts, BodyTimeout: opts.BodyTimeout})
	var sopts proxy.ServeOptions
	if so != nil {
		sopts = *so
	}
	sopts.CertFile, sopts.KeyFile = opts.TLSCert, opts.TLSKey
	serveErr := proxy.Serve(ctx, ln, h, &sopts)
	if lg != nil {
		lg.Record(proxy.HTTPExitRecord(opts.Now()))
		if err := lg.Close(); err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "mcpward: %v (log %s is incomplete)\n", err, path)
		}
	}
	return serveErr
}

// bannerTarget is the target as the start line shows it: the password and
// every query value hidden, since a query often carries the key (?key=,
// ?code=, ?sig=) and the line goes to a terminal or a client's log whatever
// --redact-* says (issue 26 item 6).
func bannerTarget(u *url.URL) string {
	c := *u
	if c.RawQuery != "" {
		var parts []string
		for _, kv := range strings.Split(c.RawQuery, "&") {
			if name, _, ok := strings.Cut(kv, "="); ok {
				kv = name + "=[REDACTED]"
			}
			parts = append(parts, kv)
		}
		c.RawQuery = strings.Join(parts, "&")
	}
	return c.Redacted()
}
