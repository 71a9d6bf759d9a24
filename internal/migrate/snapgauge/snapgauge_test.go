package snapgauge_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/migrate"
	"github.com/mcpward/mcpward/internal/migrate/snapgauge"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSnapshotMatchesNative: testdata/clean-v1.snapshot.json is the
// snapshot snapgauge writes of the embedded clean@v1 fixture (written by
// hand from the format's description: sorted keys, millisecond time,
// target as host/path, behavior with httpStatus and contentType, no
// coverage). Converted, it is complete evidence under the same probe
// spec as mcpward's own recording of that fixture, and the diff between
// the two, either way round, is empty.
func TestSnapshotMatchesNative(t *testing.T) {
	data := read(t, "clean-v1.snapshot.json")
	if k := migrate.SniffSnapshot(data); k != migrate.SnapgaugeSnapshot {
		t.Fatalf("SniffSnapshot = %q, want %q", k, migrate.SnapgaugeSnapshot)
	}
	got, err := snapgauge.Snapshot(data)
	if err != nil {
		t.Fatal(err)
	}
	native, err := snapshot.Unmarshal(read(t, "clean-v1.mcpward.snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := snapshot.Comparable(got, native); err != nil {
		t.Errorf("Comparable: %v", err)
	}
	if ps := verdict.Problems(got, nil); len(ps) > 0 {
		t.Errorf("converted snapshot is not complete evidence: %q", ps)
	}
	if fs := diff.Diff(got, native); len(fs) > 0 {
		t.Errorf("Diff(converted, native) = %+v, want none", fs)
	}
	if fs := diff.Diff(native, got); len(fs) > 0 {
		t.Errorf("Diff(native, converted) = %+v, want none", fs)
	}
	if d := cmp.Diff(native.EntityDigests, got.EntityDigests); d != "" {
		t.Errorf("entity digests (-native +converted):\n%s", d)
	}
	obs := got.Observation
	if obs.RecordedAt != "2026-01-01T00:00:00Z" || obs.Target.Fixture != "clean@v1" || obs.Target.Transport != "fixture" || obs.ProtocolVersion != "2026-07-28" {
		t.Errorf("observation = %+v", obs)
	}
	want := []snapshot.Note{{Kind: "import", Rule: "import.source", Snippet: "snapgauge 1.0.0-rc.1 snapshot (rulesetVersion 3), converted in memory"}}
	if d := cmp.Diff(want, obs.Notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}

// TestSnapshotUnmapped: every field mcpward's snapshot has no place for is
// named in a note with its path; nothing is dropped silently.
func TestSnapshotUnmapped(t *testing.T) {
	data := read(t, "clean-v1.snapshot.json")
	s := string(data)
	s = strings.Replace(s, `"behavior": {`, `"resources": {"list": []}, "transport": {"assertions": []}, "behavior": {`, 1)
	s = strings.Replace(s, `"contentType": "application/json",
      "errorCode": -32602,`, `"contentType": "application/json", "truncated": true,
      "errorCode": -32602,`, 1)
	s = strings.Replace(s, `"auth": "none",`, `"auth": "none", "region": "eu",`, 1)
	s = strings.Replace(s, `"orderStable": true,`, `"orderStable": true, "repeats": 3,`, 1)
	got, err := snapgauge.Snapshot([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, n := range got.Observation.Notes {
		if n.Kind == "import" && n.Rule == "import.unmapped" {
			paths = append(paths, n.Snippet)
		}
	}
	want := []string{
		`behavior.weather-noargs.truncated = true`,
		`resources = {"list":[]}`,
		`target.region = eu`,
		`toolsList.repeats = 3`,
		`transport = {"assertions":[]}`,
	}
	if d := cmp.Diff(want, paths); d != "" {
		t.Errorf("unmapped notes (-want +got):\n%s", d)
	}
}

// TestSnapshotRecomputedHeaders: xmcpHeaders is recomputed from the input
// schema; a stored view that disagrees is named in a note.
func TestSnapshotRecomputedHeaders(t *testing.T) {
	s := strings.Replace(string(read(t, "clean-v1.snapshot.json")), `"valid": true`, `"valid": false`, 1)
	got, err := snapgauge.Snapshot([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range got.Observation.Notes {
		if n.Rule == "import.recomputed" && strings.HasPrefix(n.Snippet, "tools.archive_note.xmcpHeaders: snapgauge had properties.workspace=false") {
			found = true
		}
	}
	if !found {
		t.Errorf("no import.recomputed note in %+v", got.Observation.Notes)
	}
	if h := got.Surface.Tools[0]["xmcpHeaders"].([]any)[0].(map[string]any); h["valid"] != true {
		t.Errorf("xmcpHeaders not recomputed: %v", h)
	}
}

func TestSnapshotErrors(t *testing.T) {
	clean := string(read(t, "clean-v1.snapshot.json"))
	tests := []struct {
		name string
		doc  string
		kind error
		msg  string
	}{
		{"newer format", strings.Replace(clean, `"formatVersion": 1`, `"formatVersion": 2`, 1), snapshot.ErrNewerFormat, "snapgauge snapshot format 2 is newer than this mcpward reads (1)"},
		{"not JSON", `{"snapgaugeVersion": `, snapshot.ErrCorrupt, "not a valid snapgauge snapshot"},
		{"no discover", strings.Replace(clean, `"discover"`, `"discovered"`, 1), snapshot.ErrCorrupt, `"discover" is missing`},
		{"tool without name", strings.Replace(clean, `"name": "list_notes"`, `"name": ""`, 1), snapshot.ErrCorrupt, "tools[2] has no name"},
		{"bad error code", strings.Replace(clean, `"errorCode": -32602`, `"errorCode": "x"`, 1), snapshot.ErrCorrupt, "behavior.weather-noargs.errorCode has the wrong type"},
		{"trailing data", clean + "{}", snapshot.ErrCorrupt, "not valid JSON: unexpected data after the top-level value"},
		{"bad hash", strings.Replace(clean, `"probeSpecHash": "`, `"probeSpecHash": "x`, 1), snapshot.ErrCorrupt, "probeSpecHash is not 64 lowercase hex characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := snapgauge.Snapshot([]byte(tt.doc))
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Snapshot() = %v, want %v containing %q", err, tt.kind, tt.msg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func FuzzSnapshot(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "clean-v1.snapshot.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"formatVersion":1,"snapgaugeVersion":"x","discover":{},"tools":[],"toolsList":{"orderStable":true},"recordedAt":"x","probeSpecHash":"0000000000000000000000000000000000000000000000000000000000000000"}`))
	f.Add([]byte(`{"formatVersion":1,"snapgaugeVersion":"x","behavior":{"p":{"metaKeys":[1]}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := snapgauge.Snapshot(b)
		if err == nil {
			if _, err := snapshot.Marshal(s); err != nil {
				t.Fatalf("converted snapshot does not marshal: %v", err)
			}
		}
	})
}
