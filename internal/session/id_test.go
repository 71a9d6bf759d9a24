package session

import (
	"bytes"
	"crypto/rand"
	"testing"
	"time"
)

func TestNewID(t *testing.T) {
	now := time.UnixMilli(1785240000123).UTC()
	id, err := NewID(now, bytes.NewReader(make([]byte, 10)))
	if err != nil {
		t.Fatal(err)
	}
	if len(id) != IDLen {
		t.Fatalf("NewID() = %q, want %d characters", id, IDLen)
	}
	if got, ok := IDTime(id); !ok || !got.Equal(now) {
		t.Errorf("IDTime(%q) = %v, %v, want %v", id, got, ok, now)
	}
	later, _ := NewID(now.Add(time.Millisecond), bytes.NewReader(make([]byte, 10)))
	if later <= id {
		t.Errorf("ids do not sort by time: %q then %q", id, later)
	}
	seen := map[string]bool{}
	for range 1000 {
		id, err := NewID(now, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
	}
	if _, err := NewID(now, bytes.NewReader(nil)); err == nil {
		t.Error("NewID() with no entropy succeeded")
	}
}
