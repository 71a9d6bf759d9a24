package addrguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct{ ip, want string }{
		{"8.8.8.8", ""}, {"1.1.1.1", ""}, {"2606:4700::1111", ""},
		{"0.0.0.0", "unspecified"}, {"127.0.0.1", "loopback"}, {"127.255.0.9", "loopback"},
		{"10.1.2.3", "private"}, {"172.16.0.1", "private"}, {"172.31.255.255", "private"}, {"172.32.0.1", ""},
		{"192.168.1.1", "private"}, {"169.254.1.1", "link-local"}, {"169.254.169.254", "metadata"},
		{"100.64.0.1", "cgnat"}, {"100.127.255.255", "cgnat"}, {"192.0.0.8", "reserved"}, {"192.0.2.1", "reserved"},
		{"198.18.0.1", "reserved"}, {"198.19.255.1", "reserved"}, {"198.51.100.7", "reserved"}, {"203.0.113.9", "reserved"},
		{"224.0.0.1", "multicast"}, {"239.255.255.250", "multicast"}, {"240.0.0.1", "reserved"}, {"255.255.255.255", "broadcast"},
		{"::", "unspecified"}, {"::1", "loopback"}, {"fc00::1", "ula"}, {"fd12:3456::1", "ula"}, {"fd00:ec2::254", "metadata"},
		{"fe80::1", "link-local"}, {"fe80::1%eth0", "link-local"}, {"fec0::1", "reserved"}, {"ff02::1", "multicast"},
		{"2001:db8::1", "reserved"}, {"::ffff:127.0.0.1", "loopback"}, {"::ffff:169.254.169.254", "metadata"},
		{"::ffff:8.8.8.8", "mapped"}, {"64:ff9b::10.0.0.1", "private"}, {"64:ff9b::8.8.8.8", ""},
		// IPv6 forms that carry an IPv4 address (each was public before).
		{"::127.0.0.1", "loopback"}, {"::10.0.0.1", "private"}, {"::ffff:0:127.0.0.1", "loopback"},
		{"::ffff:0:169.254.169.254", "metadata"}, {"2002:7f00:1::1", "loopback"}, {"2002:a00:1::", "private"},
		{"2002:a9fe:a9fe::1", "metadata"}, {"64:ff9b:1::192.168.0.1", "private"}, {"2002:808:808::1", ""},
	}
	for _, tt := range tests {
		if got := Classify(netip.MustParseAddr(tt.ip)); got != tt.want {
			t.Errorf("Classify(%s) = %q, want %q", tt.ip, got, tt.want)
		}
	}
}

func TestPinRefusesAnyBadAnswer(t *testing.T) {
	resolve := func(addrs ...string) Resolver {
		return func(context.Context, string) ([]netip.Addr, error) {
			var out []netip.Addr
			for _, a := range addrs {
				out = append(out, netip.MustParseAddr(a))
			}
			return out, nil
		}
	}
	ctx := context.Background()
	if a, err := Pin(ctx, resolve("8.8.8.8", "1.1.1.1"), "ok.example", false); err != nil || a.String() != "8.8.8.8" {
		t.Errorf("Pin public = %v, %v", a, err)
	}
	// Rebinding-style answer sets: one public, one internal.
	_, err := Pin(ctx, resolve("8.8.8.8", "169.254.169.254"), "evil.example", false)
	if !errors.Is(err, ErrNotAllowed) || !contains(err.Error(), "metadata") || contains(err.Error(), "169.254") {
		t.Errorf("Pin mixed = %v", err)
	}
	if _, err := Pin(ctx, resolve("127.0.0.1"), "localhost", false); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("loopback allowed: %v", err)
	}
	if _, err := Pin(ctx, resolve("127.0.0.1"), "localhost", true); err != nil {
		t.Errorf("loopback for tests refused: %v", err)
	}
	if _, err := Pin(ctx, resolve("10.0.0.1"), "x", true); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("private allowed with the loopback test flag: %v", err)
	}
}

func contains(s, sub string) bool {
	return len(s) >= len(sub) && (func() bool { return indexOf(s, sub) >= 0 })()
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// A failed lookup's error named the resolver's address ("lookup x on
// 10.0.0.2:53: no such host"), which the hosted check showed its public
// clients.
func TestPinErrorHidesResolver(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&net.DNSError{Err: "no such host", Name: "x.example", Server: "10.0.0.2:53", IsNotFound: true}, "no such host"},
		{&net.DNSError{Err: "i/o timeout", Name: "x.example", Server: "10.0.0.2:53", IsTimeout: true}, "lookup timed out"},
		{fmt.Errorf("dial udp 10.0.0.2:53: connection refused"), "lookup failed"},
	} {
		_, err := Pin(context.Background(), func(context.Context, string) ([]netip.Addr, error) { return nil, tc.err }, "x.example", false)
		if err == nil || strings.Contains(err.Error(), "10.0.0.2") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Pin error = %v, want %q without the resolver's address", err, tc.want)
		}
	}
}
