package proxy

import (
	"bytes"
	"slices"
	"testing"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// splitAt cuts in into chunks at the offsets cuts names (each byte of
// cuts is a chunk length, 0 meaning 1).
func splitAt(in, cuts []byte) [][]byte {
	var out [][]byte
	for i := 0; len(in) > 0; i++ {
		n := len(in)
		if len(cuts) > 0 {
			n = min(int(cuts[i%len(cuts)])+1, len(in))
		}
		out = append(out, in[:n])
		in = in[n:]
	}
	return out
}

func sseEvents(stream, cuts []byte, max int) []sseEvent {
	s := &sseSplitter{max: max}
	var evs []sseEvent
	for _, c := range splitAt(stream, cuts) {
		// The relay reuses its buffer: hand the splitter a copy that is
		// then overwritten, as the next read would.
		buf := slices.Clone(c)
		evs = append(evs, s.feed(buf)...)
		for i := range buf {
			buf[i] = 0xAA
		}
	}
	return append(evs, s.finish()...)
}

// FuzzSSESplitter: the proxy's incremental text/event-stream splitter
// gives the same events however a hostile or slow server cuts its stream
// into reads, keeps nothing of a read buffer it was handed, caps what it
// keeps, and agrees with jsonrpc's reference parser on every event with
// data.
func FuzzSSESplitter(f *testing.F) {
	for _, s := range []string{
		"data: {\"a\":1}\n\n", "event: message\r\nid: 7\r\ndata: x\r\n\r\n", "\ufeffdata:a\rdata:b\r\r",
		": comment\n\ndata\n\n", "id: a\x00b\ndata: x\n\n", "data: unterminated", "retry: 10\n\n",
		"data:" + string(bytes.Repeat([]byte("z"), 300)) + "\n\n",
	} {
		f.Add([]byte(s), []byte{0, 3, 1})
	}
	f.Fuzz(func(t *testing.T, stream, cuts []byte) {
		whole := sseEvents(stream, nil, 1<<20)
		if got := sseEvents(stream, cuts, 1<<20); !sameEvents(whole, got) {
			t.Fatalf("cut into reads %v: events differ\nwhole %+v\ncut   %+v", cuts, whole, got)
		}
		for _, ev := range sseEvents(stream, cuts, 16) {
			if len(ev.data) > 16 || ev.size < int64(len(ev.data)) {
				t.Fatalf("capped event keeps %d of %d bytes", len(ev.data), ev.size)
			}
		}
		ref, err := jsonrpc.ParseSSE(stream)
		if err != nil {
			return
		}
		var refData [][]byte
		for _, ev := range ref {
			if ev.HasData {
				refData = append(refData, ev.Data)
			}
		}
		var gotData [][]byte
		for _, ev := range whole {
			if ev.hasData {
				gotData = append(gotData, ev.data)
			}
		}
		// The reference drops an event the stream never terminated;
		// finish hands it over: compare the terminated ones.
		if len(gotData) > len(refData) {
			gotData = gotData[:len(refData)]
		}
		if len(gotData) != len(refData) {
			t.Fatalf("%d events with data, the reference parser %d", len(gotData), len(refData))
		}
		for i := range refData {
			if !bytes.Equal(gotData[i], refData[i]) {
				t.Fatalf("event %d data %q, reference %q", i, gotData[i], refData[i])
			}
		}
	})
}

func sameEvents(a, b []sseEvent) bool {
	return slices.EqualFunc(a, b, func(x, y sseEvent) bool {
		return x.event == y.event && x.id == y.id && x.hasData == y.hasData && x.size == y.size && bytes.Equal(x.data, y.data)
	})
}
