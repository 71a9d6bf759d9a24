package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/migrate/foreign"
	"github.com/mcpward/mcpward/internal/migrate/snapgauge"
	"github.com/mcpward/mcpward/internal/probe"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/transport"
)

// A Target is a resolved contract target: how to reach the server and what
// its snapshot covers.
type Target struct {
	// Name is the target name (the snapshot file stem).
	Name string
	Spec *connect.Spec
	// Probes are run after the lists, in order.
	Probes []probe.Probe
	// Disabled are the config's probes with "enabled": false: kept for the
	// reviewer, never called, and not part of the probe spec.
	Disabled []config.Probe
	// Profiles are the compat profile names (part of the probe spec).
	Profiles []string
	// Capabilities is the ClientCapabilities JSON to declare (nil: {}).
	Capabilities json.RawMessage
	// ProtocolVersion is the preferred revision ("" : latest).
	ProtocolVersion string
	// Volatile selectors, applied before digesting.
	Volatile []string
	// FailOn and Ignore come from the config target ("" / nil when unset).
	FailOn string
	Ignore []string
	// Warnings are things the user should know (a literal credential in
	// the config); the caller prints them on stderr.
	Warnings []string
}

// ProbeSpec is the declared probe spec whose hash makes two snapshots
// comparable.
func (t *Target) ProbeSpec() snapshot.ProbeSpec {
	return snapshot.ProbeSpec{Probes: slices.Clone(t.Probes), Profiles: t.Profiles}
}

// FixtureProbes returns the declared probes of an embedded fixture.
func FixtureProbes(name string) ([]probe.Probe, error) {
	f, err := fixture.Lookup(name)
	if err != nil {
		return nil, err
	}
	var out []probe.Probe // nil when the fixture declares none
	return append(out, f.Probes()...), nil
}

// Unserved returns the probes of t whose tool t's fixture does not list
// (nil for a target that is not a fixture, whose tools are not known
// before it is asked). They stay in the probe spec and are sent, answered
// with an error and recorded as such; no tool runs.
func (t *Target) Unserved() []probe.Probe {
	if t.Spec == nil || t.Spec.Fixture == "" {
		return nil
	}
	f, err := fixture.Lookup(t.Spec.Fixture)
	if err != nil {
		return nil
	}
	var out []probe.Probe
	for _, p := range t.Probes {
		if serves, _ := f.Serves(p.Tool); !serves {
			out = append(out, p)
		}
	}
	return out
}

// FromSpec resolves a target given on the command line. A fixture target
// runs its fixture's declared probes; any other runs none.
func FromSpec(name string, spec *connect.Spec) (*Target, error) {
	spec.Name = name
	t := &Target{Name: name, Spec: spec}
	if spec.Fixture != "" {
		ps, err := FixtureProbes(spec.Fixture)
		if err != nil {
			return nil, err
		}
		t.Probes = ps
	}
	return t, nil
}

// FromConfig resolves the config target name. dir is the config file's
// directory (relative cwd and home resolve against it); lookup reads the
// environment for ${VAR} in header values.
//
// An unset ${VAR} is a config error (exit 4), not incomplete evidence:
// nothing was asked of the server yet, and the fix is in the user's
// environment or config. Difference from snapgauge, which exits 2 (AUTH)
// here; PRODUCT.md puts config problems at 4.
func FromConfig(dir, name string, ct *config.Target, lookup func(string) (string, bool)) (*Target, error) {
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	spec := &connect.Spec{
		Name:        name,
		Fixture:     ct.Fixture,
		URL:         ct.URL,
		SSE:         ct.SSE,
		Cwd:         resolve(dir, ct.Cwd),
		Home:        resolve(dir, ct.Home),
		IsolateHome: ct.IsolateHome,
	}
	if ct.Command != "" {
		spec.Command = append([]string{ct.Command}, ct.Args...)
	}
	for k, v := range ct.Env {
		spec.Env = append(spec.Env, k+"="+v)
	}
	slices.Sort(spec.Env)
	if ct.TimeoutMs > 0 {
		spec.Timeout = time.Duration(ct.TimeoutMs) * time.Millisecond
	}
	t := &Target{
		Name:            name,
		Spec:            spec,
		Profiles:        ct.Profiles,
		Capabilities:    ct.Capabilities,
		ProtocolVersion: ct.ProtocolVersion,
		Volatile:        ct.Volatile,
		FailOn:          ct.FailOn,
		Ignore:          ct.Ignore,
	}
	if len(ct.Headers) > 0 {
		spec.Headers = http.Header{}
		names := make([]string, 0, len(ct.Headers))
		for k := range ct.Headers {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			v, err := transport.ExpandEnv(ct.Headers[k], lookup)
			if err != nil {
				// %v, not %w: the kind is decided here (config, exit 4),
				// whatever transport marks its error with.
				return nil, fault.Input(fmt.Errorf("targets.%s.headers.%s: %v", name, k, err))
			}
			spec.Headers.Add(k, v)
		}
		for _, k := range ct.LiteralSecretHeaders() {
			t.Warnings = append(t.Warnings, fmt.Sprintf("targets.%s.headers.%s holds a literal credential; use ${VAR} so the secret stays out of the repository", name, k))
		}
	}
	switch {
	case ct.Probes != nil:
		for _, p := range ct.Probes {
			if !p.IsEnabled() {
				t.Disabled = append(t.Disabled, p)
				continue
			}
			t.Probes = append(t.Probes, p.Decl())
		}
	case ct.Fixture != "":
		// A fixture target without probes inherits the fixture's own
		// declared probes (snapgauge §2).
		ps, err := FixtureProbes(ct.Fixture)
		if err != nil {
			return nil, err
		}
		t.Probes = ps
	}
	if err := spec.Validate(); err != nil {
		return nil, fault.Input(fmt.Errorf("targets.%s: %w", name, err))
	}
	return t, nil
}

func resolve(dir, p string) string {
	if p == "" || filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}

// ErrNoConfig is returned by [LoadConfig] when the file does not exist.
var ErrNoConfig = errors.New("no config file")

// LoadConfig reads and parses the config file at path. Every error names
// the file ("config mcpward.json: …") and is marked fault.Input; a missing
// file also wraps ErrNoConfig.
func LoadConfig(path string) (*config.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fault.Input(fmt.Errorf("config %s: %w", path, ErrNoConfig))
		}
		return nil, fault.Input(fmt.Errorf("read config %s: %w", path, fault.WithoutPath(err)))
	}
	f, err := foreign.Config(data)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return f, nil
}

// DefaultConfigPath is the config file read when none is named:
// mcpward.json in the working directory, else snapgauge's
// snapgauge.config.json (read as the same config, see foreign.Config), else
// mcpward.json (missing: the caller explains). A snapgauge JavaScript
// config alone is an error that says what to do: mcpward does not run
// JavaScript.
func DefaultConfigPath() (string, error) {
	if _, err := os.Stat(config.FileName); err == nil {
		return config.FileName, nil
	}
	if _, err := os.Stat(snapgauge.ConfigFileName); err == nil {
		return snapgauge.ConfigFileName, nil
	}
	for _, js := range snapgauge.ScriptNames {
		if _, err := os.Stat(js); err == nil {
			return "", fault.WithHint(fault.Input(fmt.Errorf("config %s: a JavaScript config, which mcpward does not run", js)),
				fmt.Sprintf("write its default export as JSON to %s (or mcpward.json) and name it with --config", snapgauge.ConfigFileName))
		}
	}
	return config.FileName, nil
}

// SnapshotDir is the config's snapshot directory, resolved against the
// config file's directory.
func SnapshotDir(configPath string, f *config.File) string {
	d := f.SnapshotDir
	if d == "" {
		d = config.DefaultSnapshotDir
	}
	return resolve(filepath.Dir(configPath), d)
}

// SnapshotPath is where target name's snapshot lives in dir.
func SnapshotPath(dir, name string) string {
	return filepath.Join(dir, name+".snapshot.json")
}

// Describe names a target's endpoint without secrets: the fixture name,
// the URL without credentials or query, or the command line.
func Describe(s *connect.Spec) string {
	return s.Info().Endpoint()
}
