package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mcpward/mcpward/internal/fault"
)

// Sentinels callers branch on. All are marked fault.Input (exit 4).
var (
	// ErrNewerFormat: the file was written by a newer mcpward.
	ErrNewerFormat = errors.New("snapshot format is newer than this mcpward reads")
	// ErrNeedsMigration: the file is an older format; re-read with migration.
	ErrNeedsMigration = errors.New("snapshot format is older and needs migration")
	// ErrSpecMismatch: two snapshots were recorded under different probe specs.
	ErrSpecMismatch = errors.New("probe spec differs: re-record one side")
	// ErrCorrupt: the file is not a valid snapshot.
	ErrCorrupt = errors.New("corrupt snapshot")
)

// Marshal returns the canonical file bytes of s: keys sorted at every depth
// (also inside schemas), 2-space indent, LF, trailing newline, numbers as
// the server wrote them. The same snapshot always gives the same bytes.
func Marshal(s *Snapshot) ([]byte, error) {
	if s == nil {
		return nil, errors.New("marshal snapshot: nil snapshot")
	}
	s, err := s.withTools()
	if err != nil {
		return nil, fmt.Errorf("marshal snapshot: %w", err)
	}
	tree, err := toTree(s)
	if err != nil {
		return nil, fmt.Errorf("marshal snapshot: %w", err)
	}
	var buf bytes.Buffer
	if err := writePretty(&buf, tree, 0); err != nil {
		return nil, fmt.Errorf("marshal snapshot: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// Unmarshal reads a snapshot strictly: invalid JSON, unknown keys (named in
// the error) and missing or malformed required fields are ErrCorrupt; a
// newer formatVersion is ErrNewerFormat; an older one is ErrNeedsMigration
// (run the bytes through [Migrate] first to accept it). All errors are
// marked fault.Input.
func Unmarshal(b []byte) (*Snapshot, error) {
	if s, ok := unmarshalFast(b, false); ok {
		return s, nil
	}
	return unmarshalStrict(b)
}

// UnmarshalLazy is [Unmarshal] (the same checks, the same errors) for a
// snapshot that is mostly compared rather than read: the tools, most of a
// large file, are checked but kept as their bytes in b, so
// Surface.Tools is nil and [Surface.RawTools] holds them; a diff decodes
// only the tools whose bytes differ between its sides, and
// [Surface.DecodeTools] decodes them all. The snapshot keeps b: it must not
// be modified. Marshal and the digests decode the tools themselves. A file
// the one-pass reader steps aside from is decoded whole, as by Unmarshal.
func UnmarshalLazy(b []byte) (*Snapshot, error) {
	if s, ok := unmarshalFast(b, true); ok {
		return s, nil
	}
	return unmarshalStrict(b)
}

// unmarshalStrict is Unmarshal without the fast path; every error comes
// from here.
func unmarshalStrict(b []byte) (*Snapshot, error) {
	v, err := readFormatVersion(b)
	if err != nil {
		return nil, err
	}
	switch {
	case v > FormatVersion:
		return nil, newerErr(v, FormatVersion)
	case v < FormatVersion:
		return nil, kindErr(ErrNeedsMigration, fmt.Sprintf("snapshot format %d is older than this mcpward writes (%d): re-run with --migrate", v, FormatVersion))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var s Snapshot
	if err := dec.Decode(&s); err != nil {
		return nil, corrupt(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, corrupt(errors.New("unexpected data after the snapshot object"))
	}
	if err := validate(&s); err != nil {
		return nil, corrupt(err)
	}
	return &s, nil
}

func corrupt(err error) error {
	return kindErr(ErrCorrupt, "corrupt snapshot: "+strings.TrimPrefix(err.Error(), "json: "))
}

// kindError carries its own message and matches its sentinel with
// errors.Is, so messages read naturally without repeating the sentinel.
type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

func kindErr(kind error, msg string) error {
	return fault.Input(&kindError{msg: msg, kind: kind})
}

func newerErr(v, max int) error {
	return kindErr(ErrNewerFormat, fmt.Sprintf("snapshot format %d is newer than this mcpward reads (%d): upgrade mcpward", v, max))
}

// readFormatVersion checks that b is a JSON object and returns its
// formatVersion, which must be a positive integer.
func readFormatVersion(b []byte) (int, error) {
	var head struct {
		FormatVersion json.Number `json:"formatVersion"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&head); err != nil {
		return 0, corrupt(err)
	}
	if head.FormatVersion == "" {
		return 0, corrupt(errors.New("formatVersion is missing"))
	}
	v, err := head.FormatVersion.Int64()
	if err != nil || v < 1 || v > 1<<20 {
		return 0, corrupt(fmt.Errorf("formatVersion %s is not a positive integer", head.FormatVersion))
	}
	return int(v), nil
}

// isHexHash reports whether s is 64 lowercase hex characters. A 5,000-tool
// snapshot holds 5,000 entity digests: a regexp took 7 ms per file.
func isHexHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// isDigest reports whether s is "sha256:" and a hex hash.
func isDigest(s string) bool {
	rest, ok := strings.CutPrefix(s, "sha256:")
	return ok && isHexHash(rest)
}

var validStatus = map[string]bool{
	StatusOK: true, StatusPartial: true, StatusAuthGated: true,
	StatusAuthRequired: true, StatusTimeout: true, StatusStartupError: true,
}

// validate checks what the type system cannot: identities present, sorted
// and unique; enumerated values; hash formats.
func validate(s *Snapshot) error {
	if !isHexHash(s.ProbeSpecHash) {
		return errors.New("probeSpecHash is not 64 lowercase hex characters")
	}
	if s.SurfaceDigest != "" && !isDigest(s.SurfaceDigest) {
		return errors.New("surfaceDigest is not sha256:<hex>")
	}
	for k, d := range s.EntityDigests {
		if !isDigest(d) {
			return fmt.Errorf("entityDigests[%q] is not sha256:<hex>", k)
		}
	}
	if !validStatus[s.Observation.Status] {
		return fmt.Errorf("observation.status %q is not a known status", s.Observation.Status)
	}
	if s.Observation.RecordedAt == "" {
		return errors.New("observation.recordedAt is missing")
	}
	if s.Surface.Tools == nil && s.Surface.raw == nil {
		return errors.New("surface.tools is missing")
	}
	for _, l := range []struct {
		name, key string
		items     []Object
		raw       []RawTool
	}{
		{"tools", "name", s.Surface.Tools, s.Surface.RawTools()},
		{"resources", "uri", s.Surface.Resources, nil},
		{"resourceTemplates", "uriTemplate", s.Surface.ResourceTemplates, nil},
		{"prompts", "name", s.Surface.Prompts, nil},
	} {
		prev := ""
		for i := range max(len(l.items), len(l.raw)) {
			var id string
			if l.raw != nil {
				id = l.raw[i].Name
			} else {
				id, _ = l.items[i][l.key].(string)
			}
			if id == "" {
				return fmt.Errorf("surface.%s[%d] has no %s", l.name, i, l.key)
			}
			if i > 0 && id <= prev {
				return fmt.Errorf("surface.%s is not sorted by %s with unique entries (at %q)", l.name, l.key, id)
			}
			prev = id
		}
	}
	if d := s.Surface.Discover; d != nil {
		if d.Capabilities == nil || d.ServerInfo == nil || d.SupportedVersions == nil {
			return errors.New("surface.discover needs supportedVersions, capabilities and serverInfo")
		}
	}
	for id, b := range s.Surface.Behavior {
		if b == nil {
			return fmt.Errorf("surface.behavior[%q] is null", id)
		}
	}
	return nil
}

// A migration upgrades a document from format From to From+1. Steps are
// pure and forward-only.
type migration struct {
	From int
	Step func(doc map[string]any) (map[string]any, error)
}

// migrations is the registry. It is empty while the format is 1; tests
// exercise the chain with a fake step.
var migrations []migration

// Migrate upgrades doc to FormatVersion through the registered chain. A gap
// in the chain is an input error; a step that does not stamp From+1 is a
// bug (unmarked, exit 5).
func Migrate(doc []byte) ([]byte, error) {
	return migrateWith(doc, migrations, FormatVersion)
}

func migrateWith(doc []byte, chain []migration, target int) ([]byte, error) {
	v, err := readFormatVersion(doc)
	if err != nil {
		return nil, err
	}
	if v > target {
		return nil, newerErr(v, target)
	}
	if v == target {
		return doc, nil
	}
	tree, err := decodeObject(doc)
	if err != nil {
		return nil, corrupt(err)
	}
	for v < target {
		var step *migration
		for i := range chain {
			if chain[i].From == v {
				step = &chain[i]
				break
			}
		}
		if step == nil {
			return nil, kindErr(ErrCorrupt, fmt.Sprintf("corrupt snapshot: no migration from format %d to %d", v, v+1))
		}
		next, err := step.Step(tree)
		if err != nil {
			return nil, fault.Input(fmt.Errorf("migrate snapshot format %d to %d: %w", v, v+1, err))
		}
		got, _ := next["formatVersion"].(json.Number)
		if n, err := got.Int64(); err != nil || int(n) != v+1 {
			return nil, fmt.Errorf("migration from format %d stamped formatVersion %v, want %d", v, next["formatVersion"], v+1)
		}
		tree, v = next, v+1
	}
	var buf bytes.Buffer
	if err := writePretty(&buf, tree, 0); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// Comparable reports whether a and b may be diffed: both must be recorded
// under the same probe spec. The error is ErrSpecMismatch, marked
// fault.Input.
func Comparable(a, b *Snapshot) error {
	if a.ProbeSpecHash != b.ProbeSpecHash {
		return kindErr(ErrSpecMismatch, fmt.Sprintf("probe spec differs (%.12s… vs %.12s…): re-record one side", a.ProbeSpecHash, b.ProbeSpecHash))
	}
	return nil
}
