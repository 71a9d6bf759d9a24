package settings

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
)

// FileName is the name of the per-directory settings file.
const FileName = ".mcpward.toml"

// A File is a parsed .mcpward.toml. A pointer member is nil when the file
// does not set it.
type File struct {
	// Path is where the file was read from ("" if not from a file).
	Path string `toml:"-"`
	// Notices are lines the command prints on stderr once it uses the
	// file (for another tool's file, read by a [Foreign]: the .mcpward.toml
	// equivalent of each key).
	Notices []string `toml:"-"`
	// Ignored names the keys not applied because the file was found in
	// the working directory and is not trusted (IgnoredLine says so).
	Ignored []string `toml:"-"`

	Label     string `toml:"label"`
	TraceFile string `toml:"trace-file"`
	NoTrace   *bool  `toml:"no-trace"`
	HubSocket string `toml:"hub-socket"`
	// NoTofu turns trust on first use off: `mcpward ui` and `sessions
	// check` then never record a tool baseline by themselves.
	NoTofu *bool  `toml:"no-tofu"`
	Redact Redact `toml:"redact"`
	OTLP   OTLP   `toml:"otlp"`
}

// Redact is the [redact] table: the --redact-* flags.
type Redact struct {
	Secrets *bool    `toml:"secrets"`
	Keys    []string `toml:"keys"`
	Values  []string `toml:"values"`
	Paths   []string `toml:"paths"`
}

// OTLP is the [otlp] table: live export of spans to a collector.
type OTLP struct {
	Endpoint string            `toml:"endpoint"`
	Headers  map[string]string `toml:"headers"`
}

// Parse decodes and checks a settings file. name is used in error
// messages. Every error is marked fault.Input.
func Parse(name string, data []byte) (*File, error) {
	f := &File{Path: name}
	if err := f.parse(data); err != nil {
		return nil, fault.Input(fmt.Errorf("config %s: %w", name, err))
	}
	return f, nil
}

func (f *File) parse(data []byte) error {
	// TOML is UTF-8; a BOM is common in files saved on Windows.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if err := checkLimits(data); err != nil {
		return err
	}
	var raw fileTOML
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&raw)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("line %d: %s", pe.Position.Line, pe.Message)
		}
		return errors.New(strings.TrimPrefix(err.Error(), "toml: "))
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return fmt.Errorf("unknown key %q%s", keys[0], suggest(keys[0]))
	}
	if err := raw.file(f); err != nil {
		return err
	}
	return f.Check()
}

// suggest returns ` (did you mean "x"?)` for a near miss.
func suggest(key string) string {
	norm := func(s string) string {
		s = strings.ReplaceAll(strings.ToLower(s), "_", "-")
		return strings.NewReplacer("redact-", "redact.", "otlp-", "otlp.").Replace(s)
	}
	k := norm(key)
	// A key in a table is most likely a misspelt member of that table:
	// candidates of the same shape come first.
	dotted := strings.Contains(key, ".")
	for _, sameShape := range []bool{true, false} {
		for _, c := range Keys() {
			if strings.Contains(c, ".") == dotted != sameShape {
				continue
			}
			if norm(c) == k || norm(c) == k+"s" || norm(c)+"s" == k {
				return fmt.Sprintf(" (did you mean %q?)", c)
			}
		}
	}
	return ""
}

// Check checks the settings as Parse does after decoding them: a reader
// of another tool's settings file (internal/migrate) calls it on the File
// it built.
func (f *File) Check() error {
	if f.Label != "" {
		if err := session.CheckLabel(f.Label); err != nil {
			return fmt.Errorf("label: %w", err)
		}
	}
	if f.NoTrace != nil && *f.NoTrace && f.TraceFile != "" {
		return errors.New("no-trace and trace-file contradict each other")
	}
	if _, err := redact.New(f.RedactConfig()); err != nil {
		return err
	}
	if f.OTLP.Endpoint != "" {
		u, err := url.Parse(f.OTLP.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("otlp.endpoint must be an http:// or https:// URL, got %q", f.OTLP.Endpoint)
		}
	} else if len(f.OTLP.Headers) > 0 {
		return errors.New("otlp.headers needs otlp.endpoint")
	}
	for name, v := range f.OTLP.Headers {
		if !isToken(name) {
			return fmt.Errorf("otlp.headers: %q is not a valid header name", name)
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return fmt.Errorf("otlp.headers: value of %s holds a line break", name)
		}
	}
	return nil
}

// isToken reports whether s is an RFC 9110 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// RedactConfig returns the file's redaction rules.
func (f *File) RedactConfig() redact.Config {
	if f == nil {
		return redact.Config{}
	}
	return redact.Config{
		Secrets: f.Redact.Secrets != nil && *f.Redact.Secrets,
		Keys:    f.Redact.Keys,
		Values:  f.Redact.Values,
		Paths:   f.Redact.Paths,
	}
}

// A FlagValue is one setting as the proxy flag that would set it: a
// repeatable flag appears once per value.
type FlagValue struct {
	Flag  string // flag name without dashes: "label", "redact-key"
	Value string // in the flag's syntax: "true", "Name=Value"
}

// Flags lists the file's settings by flag name, in a fixed order. A
// command applies those whose flag the user did not set (flags win):
//
//	for _, fv := range file.Flags() {
//		if fl := cmd.Flags().Lookup(fv.Flag); fl != nil && !fl.Changed {
//			_ = fl.Value.Set(fv.Value) // a repeatable flag appends
//		}
//	}
//
// A repeatable flag that the user set on the command line replaces the
// file's values for it rather than adding to them.
func (f *File) Flags() []FlagValue {
	if f == nil {
		return nil
	}
	var out []FlagValue
	add := func(flag, v string) {
		if v != "" {
			out = append(out, FlagValue{flag, v})
		}
	}
	add("label", f.Label)
	add("trace-file", f.TraceFile)
	if f.NoTrace != nil {
		add("no-trace", strconv.FormatBool(*f.NoTrace))
	}
	add("hub-socket", f.HubSocket)
	if f.NoTofu != nil {
		add("no-tofu", strconv.FormatBool(*f.NoTofu))
	}
	if f.Redact.Secrets != nil {
		add("redact-secrets", strconv.FormatBool(*f.Redact.Secrets))
	}
	for _, v := range f.Redact.Keys {
		add("redact-key", v)
	}
	for _, v := range f.Redact.Values {
		add("redact-value", v)
	}
	for _, v := range f.Redact.Paths {
		add("redact-path", v)
	}
	add("otlp-endpoint", f.OTLP.Endpoint)
	names := make([]string, 0, len(f.OTLP.Headers))
	for n := range f.OTLP.Headers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		add("otlp-header", n+"="+f.OTLP.Headers[n])
	}
	return out
}
