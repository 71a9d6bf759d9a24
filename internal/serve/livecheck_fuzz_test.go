package serve

import (
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheckRequest: any body and Content-Type sent to POST /api/check is
// read and validated or refused with a 4xx, never a panic; an accepted URL
// is absolute https:// with a host, no credentials and no fragment.
func FuzzCheckRequest(f *testing.F) {
	f.Add("application/json", `{"url":"https://mcp.example/mcp"}`)
	f.Add("application/x-www-form-urlencoded", "url=https%3A%2F%2Fa.example%2F")
	f.Add("application/json; charset=utf-8", `{"url":"https://u:p@a.example/"}`)
	f.Add("application/json", `{"url":"https://[::1]:0/#x"}`)
	f.Add("text/plain", "https://a.example/")
	f.Add("application/json", `{"url":["x"]} {"url":"y"}`)
	f.Add("multipart/form-data; boundary=x", "--x\r\n")
	f.Fuzz(func(t *testing.T, contentType, body string) {
		req := httptest.NewRequest("POST", "http://127.0.0.1/api/check", strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		raw, cerr := readCheckURL(httptest.NewRecorder(), req)
		if cerr != nil {
			if cerr.status < 400 || cerr.status > 499 {
				t.Fatalf("refusal with status %d", cerr.status)
			}
			return
		}
		u, cerr := parseCheckURL(raw, false)
		if cerr != nil {
			if cerr.status < 400 || cerr.status > 499 || !utf8.ValidString(cerr.code) {
				t.Fatalf("refusal %+v", cerr)
			}
			return
		}
		if u.Scheme != "https" || u.Hostname() == "" || u.User != nil || u.Fragment != "" || len(raw) > MaxURLLength {
			t.Fatalf("accepted %q as %s", raw, u)
		}
	})
}
