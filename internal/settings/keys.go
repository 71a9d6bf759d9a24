package settings

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// fileTOML is the file as decoded: every key a file may hold, in both
// spellings where the file's natural one ([redact] keys) differs from the
// proxy flag's (redact-key). docs/config.md documents each of them; a test
// checks the two lists are the same.
type fileTOML struct {
	Label     string     `toml:"label"`
	TraceFile string     `toml:"trace-file"`
	NoTrace   *bool      `toml:"no-trace"`
	HubSocket string     `toml:"hub-socket"`
	NoTofu    *bool      `toml:"no-tofu"`
	Redact    redactTOML `toml:"redact"`
	OTLP      otlpTOML   `toml:"otlp"`

	// The flags' spellings.
	RedactSecrets *bool      `toml:"redact-secrets"`
	RedactKey     stringList `toml:"redact-key"`
	RedactValue   stringList `toml:"redact-value"`
	RedactPath    stringList `toml:"redact-path"`
	OTLPEndpoint  string     `toml:"otlp-endpoint"`
	OTLPHeader    stringList `toml:"otlp-header"`
}

type redactTOML struct {
	Secrets *bool      `toml:"secrets"`
	Keys    stringList `toml:"keys"`
	Values  stringList `toml:"values"`
	Paths   stringList `toml:"paths"`
}

type otlpTOML struct {
	Endpoint string            `toml:"endpoint"`
	Headers  map[string]string `toml:"headers"`
}

// A stringList is a list of strings that may also be written as one
// string, as a repeatable flag may be given once: redact-key = "ssn".
type stringList []string

// UnmarshalTOML implements toml.Unmarshaler.
func (l *stringList) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		*l = []string{v}
		return nil
	case []any:
		out := make([]string, 0, len(v))
		for _, el := range v {
			s, ok := el.(string)
			if !ok {
				return fmt.Errorf("want a string or a list of strings, got a list holding %T", el)
			}
			out = append(out, s)
		}
		*l = out
		return nil
	}
	return fmt.Errorf("want a string or a list of strings, got %T", v)
}

// file merges the two spellings into a File.
func (t *fileTOML) file(f *File) error {
	f.Label, f.TraceFile, f.NoTrace, f.HubSocket, f.NoTofu = t.Label, t.TraceFile, t.NoTrace, t.HubSocket, t.NoTofu
	f.Redact = Redact{
		Secrets: t.Redact.Secrets,
		Keys:    append([]string(t.Redact.Keys), t.RedactKey...),
		Values:  append([]string(t.Redact.Values), t.RedactValue...),
		Paths:   append([]string(t.Redact.Paths), t.RedactPath...),
	}
	if t.RedactSecrets != nil {
		if t.Redact.Secrets != nil && *t.Redact.Secrets != *t.RedactSecrets {
			return errors.New("redact.secrets and redact-secrets disagree")
		}
		f.Redact.Secrets = t.RedactSecrets
	}
	f.OTLP = OTLP{Endpoint: t.OTLP.Endpoint, Headers: t.OTLP.Headers}
	if t.OTLPEndpoint != "" {
		if t.OTLP.Endpoint != "" && t.OTLP.Endpoint != t.OTLPEndpoint {
			return errors.New("otlp.endpoint and otlp-endpoint disagree")
		}
		f.OTLP.Endpoint = t.OTLPEndpoint
	}
	for _, h := range t.OTLPHeader {
		name, value, ok := strings.Cut(h, "=")
		if !ok {
			return fmt.Errorf("otlp-header %q: want Name=Value", h)
		}
		name = strings.TrimSpace(name)
		if f.OTLP.Headers == nil {
			f.OTLP.Headers = map[string]string{}
		}
		if old, dup := f.OTLP.Headers[name]; dup && old != value {
			return fmt.Errorf("otlp header %s is set twice", name)
		}
		f.OTLP.Headers[name] = value
	}
	for _, l := range []*[]string{&f.Redact.Keys, &f.Redact.Values, &f.Redact.Paths} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	return nil
}

// Keys returns every key a settings file may hold, sorted, tables'
// members as "table.key" ("redact.keys"), flags' spellings included
// ("redact-key").
func Keys() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := range t.NumField() {
			fl := t.Field(i)
			name := fl.Tag.Get("toml")
			if name == "" || name == "-" {
				continue
			}
			if fl.Type.Kind() == reflect.Struct {
				walk(fl.Type, prefix+name+".")
				continue
			}
			out = append(out, prefix+name)
		}
	}
	walk(reflect.TypeFor[fileTOML](), "")
	sort.Strings(out)
	return out
}
