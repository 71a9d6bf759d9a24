package config

import "encoding/json"

// The strict reading Parse does, for the readers of the configs of the
// tools mcpward replaces (internal/migrate/snapgauge): their errors read as
// Parse's (a path, a message, a suggestion; marked fault.Input) and the
// keys both formats share are checked by the same rules. This package
// knows only mcpward.json.

// A Member is one member of a JSON object, in document order.
type Member struct {
	Key string
	Val json.RawMessage
}

// Members decodes the object raw at path into its members in document
// order, rejecting duplicate keys.
func Members(path string, raw json.RawMessage) ([]Member, error) {
	ms, err := object(path, raw)
	return exported(ms), err
}

func exported(ms []member) []Member {
	if ms == nil {
		return nil
	}
	out := make([]Member, len(ms))
	for i, m := range ms {
		out[i] = Member{m.key, m.val}
	}
	return out
}

// TopLevel checks data as Parse does before it reads a key (size, UTF-8,
// one JSON value, an object) and returns the top-level members.
func TopLevel(data []byte) ([]Member, error) {
	ms, err := topLevel(data)
	return exported(ms), err
}

// Errorf is a ParseError at path, marked fault.Input.
func Errorf(path, format string, args ...any) error { return perr(path, format, args...) }

// UnknownKey is the error for key at path, suggesting the closest of allowed.
func UnknownKey(path, key string, allowed []string) error { return unknownKey(path, key, allowed) }

// Join is the path of key under path.
func Join(path, key string) string { return join(path, key) }

// String decodes a string member.
func String(path string, raw json.RawMessage, dst *string) error { return str(path, raw, dst) }

// StringList decodes an array of non-empty strings.
func StringList(path string, raw json.RawMessage, dst *[]string) error {
	return stringList(path, raw, dst)
}

// ReadSnapshotDir reads "snapshotDir" (both formats have it) into f.
func ReadSnapshotDir(m Member, f *File) error { return snapshotDir(member{m.Key, m.Val}, f) }

// EachTarget calls fn, in document order, with each member of "targets",
// its path and its value, after checking the name (it becomes a file name).
func EachTarget(raw json.RawMessage, fn func(name, path string, raw json.RawMessage) error) error {
	return eachTarget(raw, fn)
}

// ParseTarget reads one mcpward target at path.
func ParseTarget(path string, raw json.RawMessage) (*Target, error) { return parseTarget(path, raw) }
