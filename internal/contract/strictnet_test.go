package contract

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/addrguard"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
)

func resolver(addrs ...string) addrguard.Resolver {
	return func(context.Context, string) ([]netip.Addr, error) {
		var out []netip.Addr
		for _, a := range addrs {
			out = append(out, netip.MustParseAddr(a))
		}
		return out, nil
	}
}

func TestStrictNetRefuses(t *testing.T) {
	tests := []struct {
		name, url string
		answers   []string
		want      string
	}{
		{"loopback literal", "http://127.0.0.1:9000/mcp", nil, "127.0.0.1 resolves to a loopback address (public-only)"},
		{"private answer", "https://mcp.internal.example/mcp", []string{"10.1.2.3"}, "mcp.internal.example resolves to a private address (public-only)"},
		{"any answer counts", "https://mcp.example.com/mcp", []string{"93.184.216.34", "169.254.169.254"}, "mcp.example.com resolves to a metadata address (public-only)"},
		{"mapped v6", "https://[::ffff:192.168.1.1]/mcp", nil, "resolves to a private address (public-only)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &connect.Spec{URL: tt.url}
			rt, err := StrictNet(context.Background(), s, resolver(tt.answers...), nil)
			if err == nil {
				t.Fatal("StrictNet: no error")
			}
			if !errors.Is(err, fault.ErrIncomplete) || !errors.Is(err, addrguard.ErrNotAllowed) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("StrictNet() = %v, want an incomplete-evidence refusal containing %q", err, tt.want)
			}
			if rt != nil || s.RoundTripper != nil {
				t.Error("a refused target got a transport")
			}
		})
	}
}

// TestStrictNetPins: the address checked is the one dialled, on the URL's
// port, whatever the connection asks for.
func TestStrictNetPins(t *testing.T) {
	s := &connect.Spec{URL: "https://mcp.example.com:8443/mcp"}
	var dialled []string
	errStop := errors.New("stop here")
	dial := func(_ context.Context, _, address string) (net.Conn, error) {
		dialled = append(dialled, address)
		return nil, errStop
	}
	rt, err := StrictNet(context.Background(), s, resolver("93.184.216.34", "2606:2800:220:1::1"), dial)
	if err != nil {
		t.Fatal(err)
	}
	if s.RoundTripper != rt {
		t.Fatal("the spec does not carry the pinned transport")
	}
	req, _ := http.NewRequest(http.MethodPost, s.URL, nil)
	if _, err := rt.RoundTrip(req); !errors.Is(err, errStop) {
		t.Fatalf("RoundTrip = %v, want the dial's error", err)
	}
	if len(dialled) != 1 || dialled[0] != "93.184.216.34:8443" {
		t.Errorf("dialled %q, want [93.184.216.34:8443]", dialled)
	}
}

func TestStrictNetNoNetwork(t *testing.T) {
	for _, s := range []*connect.Spec{{Fixture: "clean@v1"}, {Command: []string{"node", "server.js"}}} {
		rt, err := StrictNet(context.Background(), s, func(context.Context, string) ([]netip.Addr, error) {
			t.Fatal("resolved a host for a target without one")
			return nil, nil
		}, nil)
		if err != nil || rt != nil || s.RoundTripper != nil {
			t.Errorf("StrictNet(%+v) = %v, %v", s, rt, err)
		}
	}
}
