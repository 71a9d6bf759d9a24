package snapgauge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/config"
)

// ConfigFileName is snapgauge's config file. It is read wherever
// mcpward.json is (see [foreign.Config]); without a --config, mcpward.json
// wins when both are present.
const ConfigFileName = "snapgauge.config.json"

// ScriptNames are snapgauge's JavaScript configs, which mcpward cannot
// run: it says so instead of ignoring them.
var ScriptNames = []string{"snapgauge.config.mjs", "snapgauge.config.ts"}

// SnapshotDir is snapgauge's default snapshot directory, which a snapgauge
// config without snapshotDir keeps using.
const SnapshotDir = ".snapgauge"

// ConfigSource is config.File.Source of a converted snapgauge config.
const ConfigSource = "snapgauge config"

// fixturesModule is the fixtures package snapgauge loads by
// default; mcpward embeds the same fixtures under the same names.
const fixturesModule = "@snapgauge/fixtures"

// IsConfig reports whether a config's targets are snapgauge's: every
// snapgauge target carries "transport", which mcpward's never do. A
// document that is no config at all is not (config.Parse names its fault).
func IsConfig(data []byte) bool {
	top, err := config.TopLevel(data)
	if err != nil {
		return false
	}
	for _, m := range top {
		if m.Key != "targets" {
			continue
		}
		ts, err := config.Members("targets", m.Val)
		if err != nil {
			return false
		}
		for _, t := range ts {
			ms, err := config.Members("", t.Val)
			if err != nil {
				continue
			}
			for _, tm := range ms {
				if tm.Key == "transport" {
					return true
				}
			}
		}
	}
	return false
}

// commonKeys are the keys every snapgauge target may have; each
// transport adds its own.
var (
	commonKeys    = []string{"transport", "protocolVersion", "profiles", "probes", "resources", "volatile", "failOn", "ignore", "timeoutMs"}
	transportKeys = map[string][]string{
		"http":    {"url", "headers"},
		"stdio":   {"command", "args"},
		"fixture": {"fixture", "fixturesModule"},
	}
	// metadataKeys are snapshot keys mcpward never diffs; a volatile
	// selector under them has nothing to do.
	metadataKeys = []string{"formatVersion", "snapgaugeVersion", "rulesetVersion", "probeSpecHash", "recordedAt", "target"}
)

// Config reads a snapgauge.config.json (snapgauge §2) as strictly as
// snapgauge does: unknown keys are rejected, at the top level and in each
// target, where the keys allowed depend on the target's "transport". Each
// target becomes the mcpward target that reaches the same server the same
// way; what has no use in mcpward is named in File.Warnings. Errors are
// config.Parse's (marked fault.Input, naming the key's path), saying that
// the file was read as a snapgauge config.
func Config(data []byte) (*config.File, error) {
	top, err := config.TopLevel(data)
	if err != nil {
		return nil, err
	}
	f := &config.File{Targets: map[string]*config.Target{}, SnapshotDir: SnapshotDir, Source: ConfigSource}
	sawTargets := false
	for _, m := range top {
		var err error
		switch m.Key {
		case "snapshotDir":
			err = config.ReadSnapshotDir(m, f)
		case "targets":
			sawTargets = true
			err = parseTargets(m.Val, f)
		default:
			err = config.UnknownKey("", m.Key, []string{"snapshotDir", "targets"})
		}
		if err != nil {
			return nil, snapgaugeErr(err)
		}
	}
	if !sawTargets {
		return nil, snapgaugeErr(config.Errorf("", `missing key "targets"`))
	}
	return f, nil
}

// snapgaugeErr says which format the file was read as, so that a mcpward
// config that gained a "transport" key by mistake is not a puzzle.
func snapgaugeErr(err error) error {
	return fmt.Errorf("%w (read as a snapgauge config)", err)
}

func parseTargets(raw json.RawMessage, f *config.File) error {
	return config.EachTarget(raw, func(name, path string, raw json.RawMessage) error {
		t, warnings, err := parseTarget(path, raw)
		if err != nil {
			return err
		}
		f.Targets[name] = t
		f.Warnings = append(f.Warnings, warnings...)
		return nil
	})
}

func parseTarget(path string, raw json.RawMessage) (*config.Target, []string, error) {
	ms, err := config.Members(path, raw)
	if err != nil {
		return nil, nil, err
	}
	transport := ""
	for _, m := range ms {
		if m.Key == "transport" {
			if err := config.String(config.Join(path, "transport"), m.Val, &transport); err != nil {
				return nil, nil, err
			}
		}
	}
	own, ok := transportKeys[transport]
	if !ok {
		if transport == "" {
			return nil, nil, config.Errorf(path, `target needs "transport": "http", "stdio" or "fixture"`)
		}
		return nil, nil, config.Errorf(config.Join(path, "transport"), `transport %q is not "http", "stdio" or "fixture"`, transport)
	}
	allowed := append(slices.Clone(commonKeys), own...)
	var warnings []string
	// The keys snapgauge and mcpward share mean the same; they are parsed
	// by mcpward's own target parser, which checks their values.
	var shared bytes.Buffer
	shared.WriteByte('{')
	for _, m := range ms {
		p := config.Join(path, m.Key)
		if !slices.Contains(allowed, m.Key) {
			return nil, nil, config.UnknownKey(path, m.Key, allowed)
		}
		switch m.Key {
		case "transport":
			continue
		case "resources":
			uris, err := resources(p, m.Val)
			if err != nil {
				return nil, nil, err
			}
			if len(uris) > 0 {
				warnings = append(warnings, fmt.Sprintf("%s.read is not used: mcpward lists the server's resources and reads none of them (snapgauge did not read them either)", p))
			}
			continue
		case "fixturesModule":
			var mod string
			if err := config.String(p, m.Val, &mod); err != nil {
				return nil, nil, err
			}
			if mod != fixturesModule {
				return nil, nil, config.Errorf(p, "fixtures module %q cannot be loaded: mcpward runs only its embedded fixtures (see 'mcpward fixture list')", mod)
			}
			continue
		case "volatile":
			sels, dropped, err := volatile(p, m.Val)
			if err != nil {
				return nil, nil, err
			}
			for _, d := range dropped {
				warnings = append(warnings, fmt.Sprintf("%s selector %q is not used: it selects snapshot metadata, which mcpward never diffs", p, d))
			}
			b, _ := json.Marshal(sels)
			m.Val = b
		}
		if shared.Len() > 1 {
			shared.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		shared.Write(k)
		shared.WriteByte(':')
		shared.Write(m.Val)
	}
	shared.WriteByte('}')
	t, err := config.ParseTarget(path, shared.Bytes())
	if err != nil {
		return nil, nil, err
	}
	return t, warnings, nil
}

// resources reads {"read": [uri…]}.
func resources(path string, raw json.RawMessage) ([]string, error) {
	ms, err := config.Members(path, raw)
	if err != nil {
		return nil, err
	}
	var uris []string
	for _, m := range ms {
		if m.Key != "read" {
			return nil, config.UnknownKey(path, m.Key, []string{"read"})
		}
		if err := config.StringList(config.Join(path, "read"), m.Val, &uris); err != nil {
			return nil, err
		}
	}
	return uris, nil
}

// volatile translates snapgauge's volatile selectors, dot paths
// rooted at the snapshot, to mcpward's, rooted at the surface. The
// surface sections have the same names in both (discover, tools,
// toolsList, behavior) and numeric segments index arrays in both, so a
// selector under them is kept as written; one under snapshot metadata
// selects nothing mcpward diffs and is dropped (the caller warns).
func volatile(path string, raw json.RawMessage) (kept, dropped []string, err error) {
	var sels []string
	if err := config.StringList(path, raw, &sels); err != nil {
		return nil, nil, err
	}
	kept = []string{}
	for _, s := range sels {
		root, _, _ := strings.Cut(s, ".")
		if slices.Contains(metadataKeys, root) {
			dropped = append(dropped, s)
			continue
		}
		kept = append(kept, s)
	}
	return kept, dropped, nil
}
