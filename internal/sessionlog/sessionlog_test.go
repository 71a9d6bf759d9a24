package sessionlog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/session"
)

// Line numbers survive blank and corrupt lines, long lines and a torn tail.
func TestReadLineNumbers(t *testing.T) {
	r := func(seq string, pad int) string {
		return `{"v":1,"session":"s","seq":` + seq + `,"ts":"2026-08-01T12:00:00Z","dir":"stderr","frameText":"` + strings.Repeat("x", pad) + `"}`
	}
	log := r("1", 0) + "\n\n" + "garbage\n" + r("2", 200000) + "\n" + r("3", 10) + "\n" + r("4", 0)[:30]
	var got []int
	problems, skipped, err := ReadFrom(strings.NewReader(log), "t", func(rec *session.Record, line int) { got = append(got, line) })
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{1, 4, 5}, got); d != "" {
		t.Errorf("lines mismatch (-want +got):\n%s", d)
	}
	if skipped != 2 || problems[0].Line != 3 || problems[1].Line != 6 || !problems[1].Torn {
		t.Errorf("problems %+v (skipped %d), want corrupt line 3 and torn line 6", problems, skipped)
	}
}
