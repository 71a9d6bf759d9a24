package board

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
	if a.Is6() && netip.MustParsePrefix("64:ff9b::/96").Contains(a) {
		b := a.As16()
		return Classify(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
	}
	for _, b := range blocked {
		if b.p.Contains(a) {
			return b.reason
		}
	}
	return ""
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
			return netip.Addr{}, fmt.Errorf("resolve %s: %w", host, err)
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

// SystemResolver resolves with the system resolver.
func SystemResolver(ctx context.Context, host string) ([]netip.Addr, error) {
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	return ips, err
}

// pinnedDialer dials only addr, whatever address the connection asks for:
// the name was checked once and the answer is pinned.
func pinnedDialer(addr netip.Addr) func(ctx context.Context, network, address string) (net.Conn, error) {
	var d net.Dialer
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		_, port, err := net.SplitHostPort(address)
		if err != nil {
			return nil, err
		}
		return d.DialContext(ctx, network, net.JoinHostPort(addr.String(), port))
	}
}
