package cmdutil

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/mcpward/mcpward/internal/board"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/target"
)

// StrictNetUsage is the help text of --strict-net.
const StrictNetUsage = "refuse a URL whose host resolves to a loopback, private, link-local or other non-public address, and dial only the address checked (snapgauge's public-only policy)"

// DialFunc dials a network address (net.Dialer.DialContext).
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// StrictNet applies the public-only address policy to a URL target: the
// host is resolved once, every answer must be a public address (or the
// target is refused: incomplete evidence, exit 2, as snapgauge's
// TARGET_NOT_ALLOWED), and the first answer is pinned, so that a second
// lookup cannot swap in another address (DNS rebinding). TLS still checks
// the URL's host name. A fixture or stdio target has no network: nothing
// to do. resolve and dial are the system's when nil. The caller closes
// the returned transport's idle connections when done (nil: nothing set).
func StrictNet(ctx context.Context, s *target.Spec, resolve board.Resolver, dial DialFunc) (*http.Transport, error) {
	if s.URL == "" {
		return nil, nil
	}
	u, err := url.Parse(s.URL)
	if err != nil {
		return nil, fault.Input(fmt.Errorf("--strict-net: %w", err))
	}
	if resolve == nil {
		resolve = board.SystemResolver
	}
	addr, err := board.Pin(ctx, resolve, u.Hostname(), false)
	if err != nil {
		return nil, fault.WithHint(fault.Incomplete(fmt.Errorf("--strict-net: %w", err)), "drop --strict-net to reach a server on a private or loopback address")
	}
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second}).DialContext
	}
	rt := &http.Transport{
		Proxy:               nil, // never from the environment: the pinned address is the one dialled
		DialContext:         pinned(addr, dial),
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     30 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	s.RoundTripper = rt
	return rt, nil
}

// pinned dials addr, whatever host the request names, on the requested
// port.
func pinned(addr netip.Addr, dial DialFunc) DialFunc {
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		_, port, err := net.SplitHostPort(address)
		if err != nil {
			return nil, err
		}
		return dial(ctx, network, net.JoinHostPort(addr.String(), port))
	}
}
