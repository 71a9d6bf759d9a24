package board

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// FuzzParseRoster: a roster is decoded or refused, never a panic, and a
// decoded one holds only URLs the policy admits: https://, or http:// to
// loopback when allowed.
func FuzzParseRoster(f *testing.F) {
	f.Add([]byte(`{"targets":{"a":{"url":"https://mcp.example/mcp"}}}`), false)
	f.Add([]byte(`{"targets":{"a":{"url":"http://127.0.0.1:8080/"}}}`), true)
	f.Add([]byte(`{"targets":{"a":{"url":"http://10.0.0.1/"}}}`), true)
	f.Add([]byte(`{"targets":{"a":{"url":"https://u:p@x/"}},"extra":1}`), false)
	f.Add([]byte(`{"targets":{"":{"url":""}}}`), false)
	f.Fuzz(func(t *testing.T, data []byte, allowLoopback bool) {
		r, err := ParseRoster(data, allowLoopback)
		if err != nil {
			return
		}
		for name, e := range r.Targets {
			u, err := url.Parse(e.URL)
			if err != nil {
				t.Fatalf("target %q: accepted an unparsable URL %q", name, e.URL)
			}
			if u.Scheme != "https" && !(allowLoopback && u.Scheme == "http") {
				t.Fatalf("target %q: accepted %q", name, e.URL)
			}
		}
	})
}

// FuzzReadBoard: a board file is decoded or refused, never a panic, and
// what decodes renders.
func FuzzReadBoard(f *testing.F) {
	f.Add([]byte(`{"generated":"2026-08-01T00:00:00Z","rows":[{"server":"a","status":"ok"}]}`))
	f.Add([]byte(`{"rows":[{"server":"<script>","statusDetail":"\u0000"}]}`))
	f.Add([]byte(`{"rows":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadBoard(data)
		if err != nil {
			return
		}
		var sb strings.Builder
		_ = Render(&sb, b, time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC))
	})
}
