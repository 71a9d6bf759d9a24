package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"net"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/session"
)

// httpRun runs the HTTP reverse proxy until the context ends (SIGINT or
// SIGTERM), then shuts it down and exits 0.
func httpRun(ctx context.Context, opts *ProxyOptions) error {
	label := opts.Label
	if label == "" {
		label = session.LabelForHost(opts.Target.Host)
	}
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return fault.Input(fmt.Errorf("listen on %s: %w", opts.Listen, err))
	}
	defer ln.Close()
	lg, path, err := openLog(opts, label)
	if err != nil {
		return err
	}
	var rec proxy.Recorder
	if lg != nil {
		rec = lg
		info, _ := json.Marshal(map[string]string{"target": opts.Target.String(), "listen": ln.Addr().String(), "mcpwardVersion": opts.Version})
		lg.Record(session.Record{Time: opts.Now(), Dir: session.Meta, Transport: session.HTTP, Kind: session.KindStart, Info: info})
	}
	scheme := "http"
	if opts.TLSCert != "" {
		scheme = "https"
	}
	fmt.Fprintf(opts.IO.ErrOut, "mcpward: proxying %s://%s%s to %s\n", scheme, ln.Addr(), opts.Target.RequestURI(), opts.Target)
	if path != "" {
		fmt.Fprintf(opts.IO.ErrOut, "mcpward: recording to %s\n", path)
	}
	if opts.ConfigPath != "" {
		fmt.Fprintf(opts.IO.ErrOut, "mcpward: settings from %s\n", opts.ConfigPath)
	}
	h := proxy.NewHTTPProxy(&proxy.HTTPOptions{Target: opts.Target, Recorder: rec, Now: opts.Now})
	serveErr := proxy.Serve(ctx, ln, h, opts.TLSCert, opts.TLSKey)
	if lg != nil {
		lg.Record(session.Record{Time: opts.Now(), Dir: session.Meta, Transport: session.HTTP, Kind: session.KindExit, Info: json.RawMessage(`{"code":0}`)})
		if err := lg.Close(); err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "mcpward: %v (log %s is incomplete)\n", err, path)
		}
	}
	return serveErr
}
