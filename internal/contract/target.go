package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/migrate/foreign"
	"github.com/mcpward/mcpward/internal/migrate/snapgauge"
	"github.com/mcpward/mcpward/internal/probe"
	"github.com/mcpward/mcpward/internal/snapshot"
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
// environment for ${VAR} in header values. The connection is
// connect.Resolve's (an unset ${VAR} is a config error there, exit 4);
// FromConfig adds the probes, profiles and gates.
func FromConfig(dir, name string, ct *config.Target, lookup func(string) (string, bool)) (*Target, error) {
	return FromEntry(name, ct, &connect.Source{Dir: dir, Lookup: lookup})
}

// FromEntry resolves a target entry from src (a config file's, or the one
// the flags build) with its probes, profiles and gates.
func FromEntry(name string, ct *config.Target, src *connect.Source) (*Target, error) {
	spec, warnings, err := connect.Resolve(name, ct, src)
	if err != nil {
		return nil, err
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
		Warnings:        warnings,
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
	return t, nil
}

// FromFile resolves the target name of the config file at configPath
// (cfg, read from it) with src (its Dir is the file's), and prints the
// warnings of the target on warn. Its errors are FromEntry's; the caller
// names the file. record, check, compat and fuzz resolve a config target
// through it.
func FromFile(configPath string, cfg *config.File, name string, src connect.Source, warn io.Writer) (*Target, error) {
	src.Dir = filepath.Dir(configPath)
	t, err := FromEntry(name, cfg.Targets[name], &src)
	if err != nil {
		return nil, err
	}
	for _, w := range t.Warnings {
		fmt.Fprintf(warn, "warning: %s\n", w)
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
