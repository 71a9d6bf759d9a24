package hostguard

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// request builds a request that arrived on local (nil: not through a TCP
// listener) with the given headers.
func request(t *testing.T, local *net.TCPAddr, host string, hdr map[string]string) *http.Request {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Host = host
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	if local != nil {
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
	}
	return r
}

func TestCheck(t *testing.T) {
	lo := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7333}
	lan := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 8080}
	unspec := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	app := Guard{AllowHosts: []string{"check.example.com", "Dev.Box:9999"}}
	proxy := Guard{AllowHosts: []string{"mcp.internal", "Dev.Box:9999"}, LoopbackOrigins: true}
	tests := []struct {
		name   string
		g      Guard
		local  *net.TCPAddr
		host   string
		hdr    map[string]string
		tls    bool
		refuse string // the refused header, "" for none
	}{
		{name: "loopback address", g: app, local: lo, host: "127.0.0.1:7333"},
		{name: "localhost any case", g: app, local: lo, host: "LOCALHOST:7333"},
		{name: "ipv6 loopback", g: app, local: lo, host: "[::1]:7333"},
		{name: "loopback other port", g: app, local: lo, host: "127.0.0.1:1", refuse: "Host"},
		{name: "loopback without port", g: app, local: lo, host: "localhost", refuse: "Host"},
		{name: "rebound name", g: app, local: lo, host: "127.0.0.1.nip.io:7333", refuse: "Host"},
		{name: "foreign name", g: app, local: lo, host: "evil.example", refuse: "Host"},
		{name: "empty host", g: app, local: lo, host: "", refuse: "Host"},
		{name: "allowed name any port", g: app, local: lo, host: "check.example.com:443"},
		{name: "allowed name:port", g: app, local: lo, host: "dev.box:9999"},
		{name: "allowed name wrong port", g: app, local: lo, host: "dev.box:1", refuse: "Host"},
		{name: "allowed name default port https", g: Guard{AllowHosts: []string{"x.example:443"}}, host: "x.example", tls: true},
		{name: "allowed name default port http", g: Guard{AllowHosts: []string{"x.example:443"}}, host: "x.example", refuse: "Host"},
		{name: "not through TCP", g: proxy, host: "127.0.0.1:7333", refuse: "Host"},
		{name: "not through TCP, allowed name", g: proxy, host: "mcp.internal"},
		{name: "own LAN address", g: app, local: lan, host: "192.0.2.7:8080"},
		{name: "loopback name on a LAN listener", g: app, local: lan, host: "localhost:8080", refuse: "Host"},
		{name: "unspecified address", g: app, local: unspec, host: "0.0.0.0:8080", refuse: "Host"},

		{name: "own origin", g: app, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Origin": "http://127.0.0.1:7333"}},
		{name: "own origin with slash", g: app, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Origin": "http://127.0.0.1:7333/"}},
		{name: "own origin behind TLS proxy", g: app, local: lo, host: "check.example.com", hdr: map[string]string{"Origin": "https://check.example.com"}},
		{name: "loopback origin other port", g: app, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Origin": "http://localhost:6274"}, refuse: "Origin"},
		{name: "loopback origin other port, proxy", g: proxy, local: lo, host: "localhost:7333", hdr: map[string]string{"Origin": "http://localhost:6274"}},
		{name: "allowed origin, proxy", g: proxy, local: lo, host: "mcp.internal:8080", hdr: map[string]string{"Origin": "https://mcp.internal"}},
		{name: "foreign origin", g: proxy, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Origin": "https://evil.example.com"}, refuse: "Origin"},
		{name: "rebound origin", g: proxy, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Origin": "http://evil.example.com:7333"}, refuse: "Origin"},
		{name: "null origin", g: proxy, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Origin": "null"}, refuse: "Origin"},
		{name: "origin with path", g: proxy, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Origin": "http://localhost:6274/x"}, refuse: "Origin"},
		{name: "origin with user", g: app, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Origin": "http://u@127.0.0.1:7333"}, refuse: "Origin"},
		{name: "cross-site fetch", g: app, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Sec-Fetch-Site": "cross-site"}, refuse: "Sec-Fetch-Site"},
		{name: "cross-site fetch, proxy", g: proxy, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{name: "same-origin fetch", g: app, local: lo, host: "127.0.0.1:7333", hdr: map[string]string{"Sec-Fetch-Site": "same-origin"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := request(t, tt.local, tt.host, tt.hdr)
			if tt.tls {
				r.TLS = &tls.ConnectionState{}
			}
			got := ""
			if ref := tt.g.Check(r); ref != nil {
				got = ref.Header
				if ref.Error() == "" {
					t.Error("empty refusal message")
				}
			}
			if got != tt.refuse {
				t.Errorf("Check(Host %q, %v) refused %q, want %q", tt.host, tt.hdr, got, tt.refuse)
			}
		})
	}
}

func TestSplitHost(t *testing.T) {
	tests := []struct{ in, host, port string }{
		{"a.example:80", "a.example", "80"},
		{"a.example", "a.example", ""},
		{"[::1]:9", "::1", "9"},
		{"[::1]", "::1", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		if h, p := SplitHost(tt.in); h != tt.host || p != tt.port {
			t.Errorf("SplitHost(%q) = %q, %q, want %q, %q", tt.in, h, p, tt.host, tt.port)
		}
	}
}

func TestLoopbackListen(t *testing.T) {
	tests := []struct {
		addr    string
		want    bool
		wantErr bool
	}{
		{"127.0.0.1:0", true, false},
		{"localhost:7000", true, false},
		{"[::1]:7000", true, false},
		{"0.0.0.0:8080", false, false},
		{":7000", false, false},
		{"192.0.2.1:80", false, false},
		{"127.0.0.1", false, true},
		{"127.0.0.1:", false, true},
		{"127.0.0.1:70000", false, true},
		{"127.0.0.1:http", false, true},
	}
	for _, tt := range tests {
		got, err := LoopbackListen(tt.addr)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("LoopbackListen(%q) = %v, %v, want %v (error %v)", tt.addr, got, err, tt.want, tt.wantErr)
		}
	}
}
