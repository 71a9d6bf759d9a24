package session

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// fullRecords are records with every field set, one per way a frame is
// written (frame, frameText, frameBase64).
func fullRecords() []*Record {
	base := Record{
		V: Version, Session: "01JABCDEFGHJKMNPQRSTVWXYZ0", Label: "members", Seq: 7,
		Time: time.Date(2026, 8, 1, 12, 0, 0, 500, time.UTC), Dir: ClientToServer, Transport: HTTP,
		Kind: KindNote, Exchange: 3, Method: "POST", Path: "/mcp?x=1", Status: 202,
		Header:       map[string][]string{"Content-Type": {"application/json"}},
		MCPSessionID: "sid", AuthChallenge: `Bearer realm="x"`, SSE: true, SSEEvent: "message", SSEID: "e1",
		Error: "boom", Redacted: true, Info: json.RawMessage(`{"a":1}`),
		Truncated: true, NoEOL: true, HasFrame: true,
	}
	var out []*Record
	for _, frame := range []string{`{"jsonrpc":"2.0","id":1,"result":{}}`, "not json", "\xff\xfe"} {
		r := base
		r.Frame, r.Size = []byte(frame), int64(len(frame))+100
		out = append(out, &r)
	}
	return out
}

// TestRecordMembersAgree: recordMembers is the one list of a record's
// members. Record has a field for each (or derives it), the writer writes
// every one, wireRecord decodes every one, and the fast decoder reads every
// one itself (no fallback) to the record the reference decoder gives. A
// member added to one place and not the others fails here.
func TestRecordMembersAgree(t *testing.T) {
	var names, fields []string
	for _, m := range recordMembers {
		names = append(names, m.name)
		fields = append(fields, m.field)
	}
	// Record: every field is a member's or derived, and every member's
	// field exists.
	rt := reflect.TypeFor[Record]()
	for f := range rt.Fields() {
		if !slices.Contains(fields, f.Name) && !slices.Contains(derivedFields, f.Name) {
			t.Errorf("Record.%s is in no member of recordMembers (nor derivedFields)", f.Name)
		}
	}
	for _, f := range append(slices.Clone(fields), derivedFields...) {
		if _, ok := rt.FieldByName(f); !ok {
			t.Errorf("recordMembers names Record.%s, which does not exist", f)
		}
	}
	// The reference decoder's shape: one json tag per member.
	var tags []string
	wt := reflect.TypeFor[wireRecord]()
	for f := range wt.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		tags = append(tags, tag)
	}
	if d := cmp.Diff(names, tags); d != "" {
		t.Errorf("wireRecord's members differ from recordMembers (-table +wireRecord):\n%s", d)
	}
	// The fixture sets every field: a new Record field must be set here too.
	for _, r := range fullRecords() {
		v := reflect.ValueOf(*r)
		for f := range rt.Fields() {
			if f.Name != "RawFrame" && v.FieldByIndex(f.Index).IsZero() {
				t.Errorf("fullRecords leaves Record.%s unset", f.Name)
			}
		}
	}
	// The writer, across the three frame encodings, writes each member,
	// in the table's order.
	var written []string
	for _, r := range fullRecords() {
		line := AppendRecord(nil, r)
		jsonrpc.Members(line[:len(line)-1], func(name, _ []byte) bool {
			if !slices.Contains(written, string(name)) {
				written = append(written, string(name))
			}
			return true
		})
		// Both decoders read the line back to the same record, the fast
		// one without falling back.
		want, err := decodeStd(line[:len(line)-1])
		if err != nil {
			t.Fatalf("decodeStd(%s): %v", line, err)
		}
		var d decoder
		got, err := d.fast(line[:len(line)-1])
		if err != nil {
			t.Fatalf("fast(%s) = %v; it must read every member recordMembers lists", line, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("fast and decodeStd disagree on %s (-std +fast):\n%s", line, diff)
		}
		r.RawFrame = want.RawFrame
		if diff := cmp.Diff(r, want); diff != "" {
			t.Errorf("record does not survive the writer and decodeStd (-written +read):\n%s", diff)
		}
	}
	if d := cmp.Diff(names, written); d != "" {
		t.Errorf("AppendRecord's members differ from recordMembers (-table +written):\n%s", d)
	}
}
