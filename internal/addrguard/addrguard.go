// Package addrguard is the public-only address policy for mcpward's
// outgoing connections, shared by the public board, `--strict-net` and the
// hosted check of `mcpward serve`: a host is resolved once, refused when
// any answer is a loopback, private, link-local, metadata or other
// reserved address, and the checked address is pinned for every
// connection, so a second lookup cannot swap in another (DNS rebinding).
// Its sibling hostguard guards the other direction: the Host and Origin
// of requests to mcpward's own local servers.
package addrguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
)

// ErrNotAllowed marks a target refused by the address policy.
var ErrNotAllowed = errors.New("target not allowed")

type prefixReason struct {
	p      netip.Prefix
	reason string
}

var blocked = func() []prefixReason {
	var out []prefixReason
	for _, x := range []struct{ p, r string }{
		{"169.254.169.254/32", "metadata"}, {"fd00:ec2::254/128", "metadata"},
		{"0.0.0.0/8", "unspecified"}, {"127.0.0.0/8", "loopback"}, {"10.0.0.0/8", "private"}, {"172.16.0.0/12", "private"},
		{"192.168.0.0/16", "private"}, {"169.254.0.0/16", "link-local"}, {"100.64.0.0/10", "cgnat"}, {"192.0.0.0/24", "reserved"},
		{"192.0.2.0/24", "reserved"}, {"198.18.0.0/15", "reserved"}, {"198.51.100.0/24", "reserved"}, {"203.0.113.0/24", "reserved"},
		{"255.255.255.255/32", "broadcast"}, {"224.0.0.0/4", "multicast"}, {"240.0.0.0/4", "reserved"},
		{"::/128", "unspecified"}, {"::1/128", "loopback"}, {"fc00::/7", "ula"}, {"fe80::/10", "link-local"}, {"fec0::/10", "reserved"},
		{"ff00::/8", "multicast"}, {"2001:db8::/32", "reserved"}, {"100::/64", "reserved"}, {"2001::/23", "reserved"},
	} {
		out = append(out, prefixReason{netip.MustParsePrefix(x.p), x.r})
	}
	return out
}()

// Classify returns why an address is refused ("loopback", "private",
// "metadata" …) or "" when it is public. IPv4-mapped IPv6 and NAT64
// (64:ff9b::/96) addresses are classified by the embedded IPv4 address;
// a zone is ignored.
func Classify(a netip.Addr) string {
	a = a.WithZone("")
	if a.Is4In6() {
		if r := Classify(a.Unmap()); r != "" {
			return r
		}
		return "mapped"
	}
	if a.Is6() {
		if v4, ok := embeddedIPv4(a); ok {
			if r := Classify(v4); r != "" {
				return r
			}
		}
	}
	for _, b := range blocked {
		if b.p.Contains(a) {
			return b.reason
		}
	}
	return ""
}

// The IPv6 ranges that carry an IPv4 address, which a host or a router
// may turn into a connection to that IPv4 address: NAT64 (well-known and
// local-use), SIIT's IPv4-translated ::ffff:0:a.b.c.d, the deprecated
// IPv4-compatible ::a.b.c.d, and 6to4 (2002:AABB:CCDD::/48).
var (
	nat64       = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local  = netip.MustParsePrefix("64:ff9b:1::/48")
	translated  = netip.MustParsePrefix("::ffff:0:0:0/96")
	compatible  = netip.MustParsePrefix("::/96")
	sixToFour   = netip.MustParsePrefix("2002::/16")
	unspecified = netip.IPv6Unspecified()
)

// embeddedIPv4 returns the IPv4 address an IPv6 address carries in one of
// the ranges above.
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	b := a.As16()
	last := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	switch {
	case nat64.Contains(a), nat64Local.Contains(a), translated.Contains(a):
		return last, true
	case compatible.Contains(a) && a != unspecified && a != netip.IPv6Loopback():
		return last, true
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}

// A Resolver looks up a host's addresses.
type Resolver func(ctx context.Context, host string) ([]netip.Addr, error)

// Pin resolves host once, refuses it when any answer is not public (unless
// allowLoopback and the answer is loopback), and returns the first answer
// to dial. The IP is never put in an error message.
func Pin(ctx context.Context, resolve Resolver, host string, allowLoopback bool) (netip.Addr, error) {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		addrs, err = resolve(ctx, host)
		if err != nil {
			return netip.Addr{}, fmt.Errorf("resolve %s: %s", host, resolveFailure(err))
		}
	}
	if len(addrs) == 0 {
		return netip.Addr{}, fmt.Errorf("resolve %s: no addresses", host)
	}
	for _, a := range addrs {
		r := Classify(a)
		if r == "" || (allowLoopback && r == "loopback") {
			continue
		}
		return netip.Addr{}, fmt.Errorf("%w: %s resolves to a %s address (public-only)", ErrNotAllowed, host, r)
	}
	return addrs[0], nil
}

// resolveFailure says why a lookup failed without the resolver's own
// words, which name the resolver's address ("lookup x on 10.0.0.2:53: …"):
// a public client of the hosted check must not learn it.
func resolveFailure(err error) string {
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "lookup timed out"
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return "no such host"
	case errors.As(err, &dnsErr) && dnsErr.IsTimeout:
		return "lookup timed out"
	}
	return "lookup failed"
}

// SystemResolver resolves with the system resolver.
func SystemResolver(ctx context.Context, host string) ([]netip.Addr, error) {
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	return ips, err
}

// A DialFunc dials a network address (net.Dialer.DialContext).
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// Pinned dials addr, whatever host the connection asks for, on the
// requested port: the name was checked once and the answer is pinned.
// dial is a plain net.Dialer's when nil.
func Pinned(addr netip.Addr, dial DialFunc) DialFunc {
	if dial == nil {
		var d net.Dialer
		dial = d.DialContext
	}
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		_, port, err := net.SplitHostPort(address)
		if err != nil {
			return nil, err
		}
		return dial(ctx, network, net.JoinHostPort(addr.String(), port))
	}
}
