package contract

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/mcpward/mcpward/internal/addrguard"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
)

// StrictNet applies the public-only address policy of internal/addrguard
// to a URL target (--strict-net): the host is resolved once, every answer
// must be a public address (or the target is refused: incomplete
// evidence, exit 2, as snapgauge's TARGET_NOT_ALLOWED), and the first
// answer is pinned, so that a second lookup cannot swap in another
// address (DNS rebinding). TLS still checks the URL's host name. A
// fixture or stdio target has no network: nothing to do. resolve and dial
// are the system's when nil. The caller closes the returned transport's
// idle connections when done (nil: nothing set).
func StrictNet(ctx context.Context, s *connect.Spec, resolve addrguard.Resolver, dial addrguard.DialFunc) (*http.Transport, error) {
	if s.URL == "" {
		return nil, nil
	}
	u, err := url.Parse(s.URL)
	if err != nil {
		return nil, fault.Input(fmt.Errorf("--strict-net: %w", err))
	}
	if resolve == nil {
		resolve = addrguard.SystemResolver
	}
	addr, err := addrguard.Pin(ctx, resolve, u.Hostname(), false)
	if err != nil {
		return nil, fault.WithHint(fault.Incomplete(fmt.Errorf("--strict-net: %w", err)), "drop --strict-net to reach a server on a private or loopback address")
	}
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second}).DialContext
	}
	rt := &http.Transport{
		Proxy:               nil, // never from the environment: the pinned address is the one dialled
		DialContext:         addrguard.Pinned(addr, dial),
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     30 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	s.RoundTripper = rt
	return rt, nil
}
