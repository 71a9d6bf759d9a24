package sessionargs

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/session"
)

// "-" names standard input (as mcpsnoop's check - and export -): once, and
// not when it is a terminal (the command would wait for a log forever).
func TestResolveStdin(t *testing.T) {
	ios, in, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, LookupEnv: func(string) (string, bool) { return "", false }}
	got, err := Resolve(f, []string{"-"}, "", "")
	if err != nil || !slices.Equal(got, []string{"-"}) {
		t.Errorf("Resolve(-) = %q, %v", got, err)
	}
	var flagErr *cmdutil.FlagError
	if _, err := Resolve(f, []string{"-", "-"}, "", ""); !errors.As(err, &flagErr) {
		t.Errorf("Resolve(- -) error = %v, want a usage error", err)
	}
	in.WriteString(`{"session_id":"s-1-0a1b2c3d4e5f","seq":1,"ts":"2026-08-01T12:00:00Z","direction":"c2s","raw":{"jsonrpc":"2.0","method":"x"}}` + "\n")
	var seqs []uint64
	if _, _, err := ReadLog(context.Background(), ios.In, "-", func(r *session.Record, _ int) { seqs = append(seqs, r.Seq) }); err != nil || len(seqs) != 1 {
		t.Errorf("ReadLog(-) read %v, %v; want the mcpsnoop record from stdin", seqs, err)
	}
	ios.SetStdinTTY(true)
	if _, err := Resolve(f, []string{"-"}, "", ""); !errors.As(err, &flagErr) || !strings.Contains(err.Error(), "terminal") {
		t.Errorf("Resolve(-) with a terminal error = %v, want a usage error", err)
	}
}
