package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcpward/mcpward/internal/suggest"
	"io"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/fault"
)

// maxConfigBytes bounds what Parse accepts: a config is hand-written, and a
// runaway file is a mistake, not a configuration.
const maxConfigBytes = 8 << 20

// A ParseError is one problem in a config file: Path is where (a dotted
// path such as "targets.weather.timeout", "" for the document) and Msg is
// what. It is always marked fault.Input.
type ParseError struct {
	Path string
	Msg  string
	// Suggestion is the closest allowed key, for an unknown key.
	Suggestion string
}

func (e *ParseError) Error() string {
	s := e.Msg
	if e.Path != "" {
		s += " in " + e.Path
	}
	if e.Suggestion != "" {
		s += fmt.Sprintf(" (did you mean %q?)", e.Suggestion)
	}
	return s
}

func perr(path, format string, args ...any) error {
	return fault.Input(&ParseError{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// Parse reads mcpward.json strictly (another tool's config is read by
// internal/migrate, which builds the same File). Unknown keys (with a "did you mean"
// suggestion), duplicate keys, wrong types and invalid values are errors
// that name the key and its path, marked fault.Input. The file name is not
// part of the message: the caller prefixes it ("config mcpward.json: …").
func Parse(data []byte) (*File, error) {
	top, err := topLevel(data)
	if err != nil {
		return nil, err
	}
	f := &File{Targets: map[string]*Target{}}
	sawTargets := false
	for _, m := range top {
		switch m.key {
		case "$schema":
			err = str(m.key, m.val, &f.Schema)
		case "snapshotDir":
			err = snapshotDir(m, f)
		case "targets":
			sawTargets = true
			err = parseTargets(m.val, f)
		case "profiles":
			err = parseProfiles(m.val, f)
		default:
			err = unknownKey("", m.key, []string{"$schema", "snapshotDir", "targets", "profiles"})
		}
		if err != nil {
			return nil, err
		}
	}
	if !sawTargets {
		return nil, perr("", `missing key "targets"`)
	}
	return f, nil
}

// snapshotDir reads "snapshotDir" (both formats have it), which must
// name a directory: a blank one would write snapshots into the working
// directory without saying so.
func snapshotDir(m member, f *File) error {
	if err := str(m.key, m.val, &f.SnapshotDir); err != nil {
		return err
	}
	if strings.TrimSpace(f.SnapshotDir) == "" {
		return perr(m.key, "snapshotDir is empty")
	}
	return nil
}

// topLevel checks data before a key is read (size, UTF-8, one JSON value,
// an object) and returns its top-level members.
func topLevel(data []byte) ([]member, error) {
	if len(data) > maxConfigBytes {
		return nil, perr("", "config is larger than %d MiB", maxConfigBytes>>20)
	}
	if !utf8.Valid(data) {
		return nil, perr("", "config is not valid UTF-8")
	}
	if err := checkSingleValue(data); err != nil {
		return nil, err
	}
	return object("", data)
}

// checkSingleValue rejects trailing data after the top-level value.
func checkSingleValue(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return perr("", "invalid JSON: %s", jsonMsg(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return perr("", "invalid JSON: unexpected data after the top-level object")
	}
	return nil
}

func jsonMsg(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s (at byte %d)", strings.TrimPrefix(se.Error(), "json: "), se.Offset)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

type member struct {
	key string
	val json.RawMessage
}

// object decodes a JSON object into its members in document order,
// rejecting duplicate keys (which encoding/json would silently resolve).
func object(path string, raw json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, perr(path, "invalid JSON: %s", jsonMsg(err))
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, perr(path, "want an object, got %s", kind(raw))
	}
	var out []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, perr(path, "invalid JSON: %s", jsonMsg(err))
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, perr(join(path, key), "invalid JSON: %s", jsonMsg(err))
		}
		if seen[key] {
			return nil, perr(path, "duplicate key %q", key)
		}
		seen[key] = true
		out = append(out, member{key, val})
	}
	return out, nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func kind(raw json.RawMessage) string {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func str(path string, raw json.RawMessage, dst *string) error {
	if err := json.Unmarshal(raw, dst); err != nil || isNull(raw) {
		return perr(path, "want a string, got %s", kind(raw))
	}
	return nil
}

func boolean(path string, raw json.RawMessage, dst *bool) error {
	if err := json.Unmarshal(raw, dst); err != nil || isNull(raw) {
		return perr(path, "want true or false, got %s", kind(raw))
	}
	return nil
}

func stringList(path string, raw json.RawMessage, dst *[]string) error {
	if err := json.Unmarshal(raw, dst); err != nil || isNull(raw) {
		return perr(path, "want an array of strings, got %s", kind(raw))
	}
	for i, s := range *dst {
		if s == "" {
			return perr(fmt.Sprintf("%s[%d]", path, i), "empty string")
		}
	}
	return nil
}

func stringMap(path string, raw json.RawMessage) (map[string]string, error) {
	ms, err := object(path, raw)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(ms))
	for _, m := range ms {
		var v string
		if err := str(join(path, m.key), m.val, &v); err != nil {
			return nil, err
		}
		out[m.key] = v
	}
	return out, nil
}

func parseProfiles(raw json.RawMessage, f *File) error {
	ms, err := object("profiles", raw)
	if err != nil {
		return err
	}
	f.Profiles = make(map[string]json.RawMessage, len(ms))
	for _, m := range ms {
		p := join("profiles", m.key)
		if m.key == "" {
			return perr("profiles", "empty profile name")
		}
		if _, err := object(p, m.val); err != nil {
			return err
		}
		f.Profiles[m.key] = m.val
	}
	return nil
}

func parseTargets(raw json.RawMessage, f *File) error {
	return eachTarget(raw, func(name, path string, raw json.RawMessage) error {
		t, err := parseTarget(path, raw)
		if err != nil {
			return err
		}
		f.Targets[name] = t
		return nil
	})
}

// eachTarget calls fn, in document order, with each member of "targets"
// (both formats' map of name to target), its path for messages and its
// value, after checking the name: it becomes a file name.
func eachTarget(raw json.RawMessage, fn func(name, path string, raw json.RawMessage) error) error {
	ms, err := object("targets", raw)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if !ValidTargetName(m.key) {
			return perr("targets", "target name %q is not allowed (letters, digits and . _ @ - only: it becomes a file name)", m.key)
		}
		if err := fn(m.key, join("targets", m.key), m.val); err != nil {
			return err
		}
	}
	return nil
}

var targetKeys = []string{"fixture", "url", "command", "args", "env", "cwd", "home", "isolateHome", "headers", "sse", "protocolVersion", "capabilities", "profiles", "probes", "volatile", "failOn", "ignore", "timeoutMs"}

func parseTarget(path string, raw json.RawMessage) (*Target, error) {
	ms, err := object(path, raw)
	if err != nil {
		return nil, err
	}
	t := &Target{}
	for _, m := range ms {
		p := join(path, m.key)
		switch m.key {
		case "fixture":
			err = str(p, m.val, &t.Fixture)
		case "url":
			err = str(p, m.val, &t.URL)
		case "command":
			err = str(p, m.val, &t.Command)
		case "args":
			if err = json.Unmarshal(m.val, &t.Args); err != nil || isNull(m.val) {
				err = perr(p, "want an array of strings, got %s", kind(m.val))
			}
		case "env":
			t.Env, err = stringMap(p, m.val)
		case "cwd":
			err = str(p, m.val, &t.Cwd)
		case "home":
			err = str(p, m.val, &t.Home)
		case "isolateHome":
			err = boolean(p, m.val, &t.IsolateHome)
		case "headers":
			t.Headers, err = stringMap(p, m.val)
		case "sse":
			err = boolean(p, m.val, &t.SSE)
		case "protocolVersion":
			err = str(p, m.val, &t.ProtocolVersion)
		case "capabilities":
			if _, err = object(p, m.val); err == nil {
				t.Capabilities = m.val
			}
		case "profiles":
			err = stringList(p, m.val, &t.Profiles)
		case "probes":
			if !isNull(m.val) {
				t.Probes, err = parseProbes(p, m.val)
			}
		case "volatile":
			err = stringList(p, m.val, &t.Volatile)
		case "failOn":
			if err = str(p, m.val, &t.FailOn); err == nil {
				if _, terr := diff.ParseGateTier(t.FailOn); terr != nil {
					err = perr(p, "%v", terr)
				}
			}
		case "ignore":
			err = stringList(p, m.val, &t.Ignore)
		case "timeoutMs":
			var n json.Number
			if kind(m.val) != "a number" || json.Unmarshal(m.val, &n) != nil {
				err = perr(p, "want a positive integer of milliseconds, got %s", kind(m.val))
				break
			}
			v, ierr := n.Int64()
			if ierr != nil || v <= 0 {
				err = perr(p, "want a positive integer of milliseconds, got %s", n)
				break
			}
			t.TimeoutMs = v
		default:
			err = unknownKey(path, m.key, targetKeys)
		}
		if err != nil {
			return nil, err
		}
	}
	return t, validateTarget(path, t)
}

func validateTarget(path string, t *Target) error {
	n := 0
	for _, set := range []bool{t.Fixture != "", t.URL != "", t.Command != ""} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return perr(path, `target needs one of "fixture", "url" or "command"`)
	case n > 1:
		return perr(path, `target has more than one of "fixture", "url" and "command"`)
	}
	if t.URL != "" {
		u, err := url.Parse(t.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return perr(join(path, "url"), "%q is not an http(s) URL", t.URL)
		}
		if u.User != nil {
			return perr(join(path, "url"), "credentials in the URL are not allowed (use a header with ${VAR})")
		}
	}
	if t.Command == "" {
		for _, k := range []struct {
			set  bool
			name string
		}{{t.Args != nil, "args"}, {t.Env != nil, "env"}, {t.Cwd != "", "cwd"}, {t.Home != "", "home"}, {t.IsolateHome, "isolateHome"}} {
			if k.set {
				return perr(join(path, k.name), "%q applies only to a stdio target (one with \"command\")", k.name)
			}
		}
	}
	if t.URL == "" {
		if t.Headers != nil {
			return perr(join(path, "headers"), `"headers" apply only to a "url" target`)
		}
		if t.SSE {
			return perr(join(path, "sse"), `"sse" applies only to a "url" target`)
		}
	}
	for name := range t.Headers {
		if !headerNameRe().MatchString(name) {
			return perr(join(path, "headers"), "header name %q is not a valid HTTP field name", name)
		}
	}
	for k := range t.Env {
		if k == "" || strings.Contains(k, "=") {
			return perr(join(path, "env"), "environment variable name %q is not valid", k)
		}
	}
	return nil
}

var probeKeys = []string{"id", "tool", "enabled", "reason", "arguments", "capture"}

func parseProbes(path string, raw json.RawMessage) ([]Probe, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, perr(path, "want an array of probes, got %s", kind(raw))
	}
	out := make([]Probe, 0, len(items))
	ids := map[string]bool{}
	for i, it := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		ms, err := object(p, it)
		if err != nil {
			return nil, err
		}
		var pr Probe
		for _, m := range ms {
			kp := join(p, m.key)
			switch m.key {
			case "id":
				err = str(kp, m.val, &pr.ID)
			case "tool":
				err = str(kp, m.val, &pr.Tool)
			case "enabled":
				var on bool
				if err = boolean(kp, m.val, &on); err == nil {
					pr.Enabled = &on
				}
			case "reason":
				err = str(kp, m.val, &pr.Reason)
			case "arguments":
				if _, err = object(kp, m.val); err == nil {
					pr.Arguments = m.val
				}
			case "capture":
				if err = str(kp, m.val, &pr.Capture); err == nil && pr.Capture != "shape" && pr.Capture != "values" {
					err = perr(kp, `capture must be "shape" or "values", got %q`, pr.Capture)
				}
			default:
				err = unknownKey(p, m.key, probeKeys)
			}
			if err != nil {
				return nil, err
			}
		}
		switch {
		case pr.ID == "":
			return nil, perr(p, `probe needs an "id"`)
		case pr.Tool == "":
			return nil, perr(p, `probe needs a "tool"`)
		case ids[pr.ID]:
			return nil, perr(p, "duplicate probe id %q", pr.ID)
		}
		ids[pr.ID] = true
		out = append(out, pr)
	}
	return out, nil
}

// unknownKey names the key, where it is, and the closest allowed key.
func unknownKey(path, key string, allowed []string) error {
	if path == "" {
		path = "the top level"
	}
	return fault.Input(&ParseError{Path: path, Msg: fmt.Sprintf("unknown key %q", key), Suggestion: closestKey(key, allowed)})
}

// closestKey returns the allowed key closest to key: same letters ignoring
// case, a prefix either way, or within two edits.
func closestKey(key string, allowed []string) string {
	lk := strings.ToLower(key)
	best, bestD := "", 3
	for _, a := range allowed {
		la := strings.ToLower(a)
		if la == lk {
			return a
		}
		d := suggest.Distance(lk, la)
		if len(lk) >= 3 && (strings.HasPrefix(la, lk) || strings.HasPrefix(lk, la)) && d > 0 {
			d = min(d, 2)
		}
		if d < bestD {
			best, bestD = a, d
		}
	}
	return best
}
