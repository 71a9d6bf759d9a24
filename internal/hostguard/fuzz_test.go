package hostguard

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzCheck: any Host and Origin is judged without a panic; a request
// that arrived on loopback is admitted only with a loopback or allowed
// Host, and never with a foreign Origin under the strict guard.
func FuzzCheck(f *testing.F) {
	f.Add("127.0.0.1:8080", "http://127.0.0.1:8080")
	f.Add("localhost:8080", "")
	f.Add("evil.example:8080", "http://evil.example")
	f.Add("[::1]:8080", "http://[::1]:8080")
	f.Add("127.0.0.1.nip.io:8080", "null")
	f.Add("[::ffff:127.0.0.1]:8080", "http://[::ffff:7f00:1]:8080")
	f.Add("LOCALHOST.:8080", "HTTP://LOCALHOST:8080")
	f.Fuzz(func(t *testing.T, host, origin string) {
		req := httptest.NewRequest("GET", "http://127.0.0.1:8080/", nil)
		req.Host = host
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}))
		for _, g := range []*Guard{{}, {LoopbackOrigins: true}, {AllowHosts: []string{"app.example"}}} {
			if g.Check(req) != nil {
				continue
			}
			if h, p := SplitHost(host); !IsLoopback(h) && !g.allowedName(h, p) {
				t.Fatalf("guard %+v admitted Host %q, neither loopback nor allowed", g, host)
			}
		}
	})
}
