// Package hostguard keeps web pages away from mcpward's local HTTP
// servers (the loopback HTTP proxy, mcpward serve). It checks a request's
// Host and Origin headers against DNS rebinding, where a page served from
// a name its owner controls rebinds that name to 127.0.0.1 and then talks
// to a local server as if it were the page's own origin.
//
//	g := hostguard.Guard{AllowHosts: []string{"mcp.internal"}}
//	if ref := g.Check(r); ref != nil {
//		// 403: ref.Header ("Host" or "Origin") carried ref.Value
//	}
package hostguard

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// A Guard says which Host and Origin values a local server accepts. The
// zero value accepts the address the request arrived on and the server's
// own origin.
type Guard struct {
	// AllowHosts are further names accepted in Host and Origin: "name"
	// with any port, or "name:port" (a reverse proxy's public name).
	AllowHosts []string
	// LoopbackOrigins also accepts an Origin on any loopback host and
	// port, or on a name of AllowHosts: a local web app (an MCP
	// inspector on another port) may talk to the server. Without it only
	// the server's own origin is accepted, and a request the browser
	// marks as cross-site (Sec-Fetch-Site: a GET from an <img> sends no
	// Origin) is refused too.
	LoopbackOrigins bool
}

// A Refusal says which header made a request foreign.
type Refusal struct {
	// Header is "Host", "Origin" or "Sec-Fetch-Site".
	Header string
	// Value is what the request carried in it.
	Value string
}

// Error says what was refused, e.g. `Host "evil.example:80" is not an
// address of this server`.
func (r *Refusal) Error() string {
	switch r.Header {
	case "Host":
		return fmt.Sprintf("Host %q is not an address of this server", r.Value)
	case "Origin":
		return fmt.Sprintf("Origin %q is not an origin allowed here", r.Value)
	}
	return "a request from another site"
}

// Check returns why r must be refused, or nil.
func (g *Guard) Check(r *http.Request) *Refusal {
	if !g.HostAllowed(r) {
		return &Refusal{Header: "Host", Value: r.Host}
	}
	for _, o := range r.Header.Values("Origin") {
		if !g.OriginAllowed(r, o) {
			return &Refusal{Header: "Origin", Value: o}
		}
	}
	if !g.LoopbackOrigins && r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return &Refusal{Header: "Sec-Fetch-Site", Value: "cross-site"}
	}
	return nil
}

// HostAllowed reports whether r's Host is a name of AllowHosts, or the
// address the request arrived on with its port, or a loopback name or
// address with that port when it arrived on a loopback address. A request
// that did not come through a TCP listener (nothing to compare with) is
// refused unless its Host is an allowed name.
func (g *Guard) HostAllowed(r *http.Request) bool {
	host, port := SplitHost(r.Host)
	if host == "" {
		return false
	}
	if port == "" {
		port = "80"
		if r.TLS != nil {
			port = "443"
		}
	}
	if g.allowedName(host, port) {
		return true
	}
	la, _ := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if la == nil || port != fmt.Sprint(la.Port) {
		return false
	}
	if IsLoopback(host) && la.IP.IsLoopback() {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.Equal(la.IP) && !ip.IsUnspecified()
}

// OriginAllowed reports whether origin (an Origin header of r) is the
// server's own origin, the scheme aside (a reverse proxy may end TLS in
// front of it), or, with LoopbackOrigins, on a loopback host or a name of
// AllowHosts. "null" (a sandboxed page) is refused.
func (g *Guard) OriginAllowed(r *http.Request, origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return false
	}
	oh, op := SplitHost(u.Host)
	if op == "" {
		op = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if g.LoopbackOrigins && (IsLoopback(oh) || g.allowedName(oh, op)) {
		return true
	}
	rh, rp := SplitHost(r.Host)
	if rp == "" {
		rp = op
	}
	return strings.EqualFold(oh, rh) && op == rp
}

func (g *Guard) allowedName(host, port string) bool {
	for _, a := range g.AllowHosts {
		ah, ap := SplitHost(a)
		if strings.EqualFold(ah, host) && (ap == "" || ap == port) {
			return true
		}
	}
	return false
}

// SplitHost splits "host:port", "host", "[::1]:port" or "[::1]"; port is
// "" when there is none.
func SplitHost(hp string) (host, port string) {
	if h, p, err := net.SplitHostPort(hp); err == nil {
		return h, p
	}
	return strings.TrimSuffix(strings.TrimPrefix(hp, "["), "]"), ""
}

// IsLoopback reports whether host is "localhost" (any case) or a loopback
// address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// LoopbackListen reports whether a listen address ("host:port", port 0
// for any free one) is on a loopback host; err when it is not host:port.
func LoopbackListen(addr string) (bool, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return false, fmt.Errorf("%q is not host:port", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return false, fmt.Errorf("%q: port %q is not a number from 0 to 65535", addr, port)
	}
	return IsLoopback(host), nil
}
