package settings

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/fault"
)

// TrustEnv is the environment variable that trusts settings files found
// in the working directory without asking: "1" (or "true") trusts the one
// found, anything else is a list of files or directories (separated as
// in PATH), each trusting the file it names or the one found in it. The
// GitHub Action sets it, because there the working directory is the
// user's own checkout.
const TrustEnv = "MCPWARD_TRUST_CONFIG"

// TrustStoreName is the file, in the user's config directory
// (<XDG_CONFIG_HOME or ~/.config>/mcpward/), that lists the settings
// files the user trusted with `mcpward trust`, one per line: the SHA-256
// of the content, a space, the absolute path.
const TrustStoreName = "trusted"

// A settings file found in the working directory is applied only in part
// until it is trusted: the keys that would send data somewhere (otlp.*,
// hub-socket), write outside the state directory (trace-file) or read the
// environment (${VAR} in otlp.headers) are ignored, with a line naming
// them (File.Ignored). The rest (label, redaction, no-trace, no-tofu)
// apply: none of them reaches past the state directory. A file named with
// --config, the user's own config.toml, and a file trusted by TrustEnv,
// by the proxy's --trust-config or in the trust store apply whole. The
// trust store keys a file by path and content hash, so an edited file is
// untrusted again (as direnv does).

// untrustedKeys clears the settings an untrusted file may not set and
// returns their names, in the file's spelling.
func (f *File) untrustedKeys() []string {
	var out []string
	if f.TraceFile != "" {
		out = append(out, "trace-file")
		f.TraceFile = ""
	}
	if f.HubSocket != "" {
		out = append(out, "hub-socket")
		f.HubSocket = ""
	}
	if f.OTLP.Endpoint != "" {
		out = append(out, "otlp.endpoint")
	}
	if len(f.OTLP.Headers) > 0 {
		out = append(out, "otlp.headers")
	}
	f.OTLP = OTLP{}
	return out
}

// IgnoredLine is the line a command prints when an untrusted file's keys
// were ignored ("" when none were).
func (f *File) IgnoredLine() string {
	if f == nil || len(f.Ignored) == 0 {
		return ""
	}
	return fmt.Sprintf("ignored %s of %s: the file is in the working directory and not trusted (it could send your traffic or environment elsewhere); if it is yours, trust it with: mcpward trust %s (or pass --trust-config, or set %s=1)",
		strings.Join(f.Ignored, ", "), f.Path, shellQuote(f.Path), TrustEnv)
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r == '+' || r == ':' || r == '@' ||
			'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// trustedByEnv reports whether TrustEnv trusts the file at path (absolute).
func trustedByEnv(path string, lookupEnv func(string) (string, bool)) bool {
	if lookupEnv == nil {
		return false
	}
	v, ok := lookupEnv(TrustEnv)
	if !ok || v == "" {
		return false
	}
	switch strings.ToLower(v) {
	case "1", "true", "yes":
		return true
	}
	for _, e := range filepath.SplitList(v) {
		if e == "" {
			continue
		}
		if abs, err := filepath.Abs(e); err == nil && (abs == path || abs == filepath.Dir(path)) {
			return true
		}
	}
	return false
}

// TrustStorePath is the trust store's path ("" when neither
// XDG_CONFIG_HOME nor HOME is set).
func TrustStorePath(lookupEnv func(string) (string, bool)) string {
	dir := userConfigDir(lookupEnv)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "mcpward", TrustStoreName)
}

// A TrustEntry is one line of the trust store.
type TrustEntry struct {
	Hash string // hex SHA-256 of the content
	Path string // absolute
}

// ContentHash is the hex SHA-256 the trust store keys a file's content by.
func ContentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Trusted reads the trust store; a missing store is empty. A line that is
// not "HASH PATH" is an input error naming the store.
func Trusted(lookupEnv func(string) (string, bool)) ([]TrustEntry, error) {
	store := TrustStorePath(lookupEnv)
	if store == "" {
		return nil, nil
	}
	data, err := os.ReadFile(store)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.Input(fmt.Errorf("trust store %s: %w", store, unwrapPathError(err)))
	}
	var out []TrustEntry
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		hash, path, ok := strings.Cut(line, " ")
		if _, err := hex.DecodeString(hash); !ok || err != nil || len(hash) != 2*sha256.Size || !filepath.IsAbs(path) {
			return nil, fault.Input(fmt.Errorf("trust store %s: line %d: want the SHA-256 of a file, a space and its absolute path", store, n))
		}
		out = append(out, TrustEntry{Hash: hash, Path: path})
	}
	if err := sc.Err(); err != nil {
		return nil, fault.Input(fmt.Errorf("trust store %s: %w", store, err))
	}
	return out, nil
}

// isTrusted reports whether the store holds path with this content.
func isTrusted(path string, data []byte, lookupEnv func(string) (string, bool)) (bool, error) {
	entries, err := Trusted(lookupEnv)
	if err != nil {
		return false, err
	}
	hash := ContentHash(data)
	for _, e := range entries {
		if e.Path == path && e.Hash == hash {
			return true, nil
		}
	}
	return false, nil
}

// Trust records the settings file at path, with this content, in the trust
// store, replacing an older entry for the path. remove drops the path's
// entry instead (data is then unused). It returns the store's path.
func Trust(path string, data []byte, remove bool, lookupEnv func(string) (string, bool)) (string, error) {
	store := TrustStorePath(lookupEnv)
	if store == "" {
		return "", fault.Input(errors.New("no user config directory to keep trust in: set HOME or XDG_CONFIG_HOME"))
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fault.Input(fmt.Errorf("trust %s: %w", path, err))
	}
	if strings.ContainsAny(abs, "\r\n") {
		return "", fault.Input(fmt.Errorf("trust %q: the path holds a line break", abs))
	}
	entries, err := Trusted(lookupEnv)
	if err != nil {
		return "", err
	}
	kept := entries[:0]
	for _, e := range entries {
		if e.Path != abs {
			kept = append(kept, e)
		}
	}
	if !remove {
		kept = append(kept, TrustEntry{Hash: ContentHash(data), Path: abs})
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].Path < kept[j].Path })
	var b bytes.Buffer
	b.WriteString("# Settings files mcpward applies whole (mcpward trust FILE); an edited file is untrusted again.\n")
	for _, e := range kept {
		fmt.Fprintf(&b, "%s %s\n", e.Hash, e.Path)
	}
	if err := os.MkdirAll(filepath.Dir(store), 0o700); err != nil {
		return "", fault.Input(fmt.Errorf("trust store %s: %w", store, unwrapPathError(err)))
	}
	if err := atomicfile.Write(store, b.Bytes(), 0o600); err != nil {
		return "", fault.Input(fmt.Errorf("trust store: %w", err))
	}
	return store, nil
}

// TrustFile reads and checks the settings file at path (by a foreign
// parser when its name is one of foreign's) and records it in the trust store: what is
// trusted is the content that was checked. It returns the store's path and
// the content hash.
func TrustFile(path string, lookupEnv func(string) (string, bool), foreign []Foreign) (store, hash string, err error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return "", "", fault.Input(fmt.Errorf("trust %s: not a regular file", path))
	}
	data, err := readLimited(path)
	if err != nil {
		return "", "", fault.Input(fmt.Errorf("trust %s: %w", path, unwrapPathError(err)))
	}
	if _, err := parserFor(path, foreign)(path, data); err != nil {
		return "", "", err
	}
	store, err = Trust(path, data, false, lookupEnv)
	return store, ContentHash(data), err
}
