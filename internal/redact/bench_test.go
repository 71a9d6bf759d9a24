package redact

import (
	"fmt"
	"strings"
	"testing"
)

// bigFrame builds a tools/list-like result of about size bytes. With
// secret set, every 50th tool carries a password default and a key.
func bigFrame(size int, secret bool) []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"tools":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool_%d","description":"Reads the weather for a city and returns a forecast, in metric units, for the next %d days.","inputSchema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1}}},"annotations":{"readOnlyHint":true}`, i, i%7)
		if secret && i%50 == 0 {
			fmt.Fprintf(&b, `,"_meta":{"password":"pw%d","note":"key sk-abcdefghijklmnopqrstu%04d"}`, i, i)
		}
		b.WriteByte('}')
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

// BenchmarkText is the text path: a megabyte of log lines that are not
// JSON (a server's stderr, a truncated frame), with and without a hidden
// name in it.
func BenchmarkText(b *testing.B) {
	r := mustNew(b, Config{Secrets: true, Keys: []string{"ssn"}})
	for _, bc := range []struct {
		name   string
		secret bool
	}{{"1MB_clean", false}, {"1MB_matches", true}} {
		var sb strings.Builder
		for i := 0; sb.Len() < 1<<20; i++ {
			fmt.Fprintf(&sb, "2026-12-01T10:00:00Z INFO request=%d path=/v1/forecast?city=Paris&days=3 status=200 bytes=5120 {\"user\":\"bob\"}\n", i)
			if bc.secret && i%50 == 0 {
				fmt.Fprintf(&sb, "2026-12-01T10:00:00Z WARN lookup ssn=%09d\n", i)
			}
		}
		frame := []byte(sb.String())
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				if _, changed := r.Frame(frame); changed != bc.secret {
					b.Fatalf("changed = %v", changed)
				}
			}
		})
	}
}

func BenchmarkFrame(b *testing.B) {
	r := mustNew(b, Config{Secrets: true, Keys: []string{"ssn"}, Paths: []string{"params.arguments.pin"}})
	for _, bc := range []struct {
		name   string
		secret bool
		ssn    bool // a member named ssn: every string is scanned as text
	}{{"1MB_clean", false, false}, {"1MB_matches", true, false}, {"1MB_key_present", true, true}} {
		frame := bigFrame(1<<20, bc.secret)
		if bc.ssn {
			frame = append([]byte(`{"ssn":"1","x":`), append(frame, '}')...)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				out, changed := r.Frame(frame)
				if changed != bc.secret || len(out) == 0 {
					b.Fatalf("changed = %v", changed)
				}
			}
		})
	}
}

// TestCleanFrameAllocs pins that a frame with nothing to hide costs no
// allocation proportional to its size.
func TestCleanFrameAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	r := mustNew(t, Config{Secrets: true, Keys: []string{"ssn"}, Values: []string{`acct-\d+`}})
	frame := bigFrame(1<<20, false)
	r.Frame(frame) // warm the scanner pool
	allocs := testing.AllocsPerRun(5, func() { r.Frame(frame) })
	if allocs > 10 {
		t.Errorf("Frame(1 MB clean) = %v allocations, want at most 10", allocs)
	}
}
