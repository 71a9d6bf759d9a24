package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// SnapgaugeFileName is snapgauge's config file. It is read wherever
// mcpward.json is (see [Parse]); without a --config, mcpward.json wins when
// both are present.
const SnapgaugeFileName = "snapgauge.config.json"

// SnapgaugeScriptNames are snapgauge's JavaScript configs, which mcpward
// cannot run: it says so instead of ignoring them.
var SnapgaugeScriptNames = []string{"snapgauge.config.mjs", "snapgauge.config.ts"}

// SnapgaugeSnapshotDir is snapgauge's default snapshot directory, which a
// snapgauge config without snapshotDir keeps using.
const SnapgaugeSnapshotDir = ".snapgauge"

// snapgaugeFixturesModule is the fixtures package snapgauge loads by
// default; mcpward embeds the same fixtures under the same names.
const snapgaugeFixturesModule = "@snapgauge/fixtures"

// isSnapgauge reports whether a config's targets are snapgauge's: every
// snapgauge target carries "transport", which mcpward's never do.
func isSnapgauge(top []member) bool {
	for _, m := range top {
		if m.key != "targets" {
			continue
		}
		ts, err := object("targets", m.val)
		if err != nil {
			return false
		}
		for _, t := range ts {
			ms, err := object("", t.val)
			if err != nil {
				continue
			}
			for _, tm := range ms {
				if tm.key == "transport" {
					return true
				}
			}
		}
	}
	return false
}

// snapgaugeTargetKeys are the keys every snapgauge target may have; each
// transport adds its own.
var (
	snapgaugeCommonKeys    = []string{"transport", "protocolVersion", "profiles", "probes", "resources", "volatile", "failOn", "ignore", "timeoutMs"}
	snapgaugeTransportKeys = map[string][]string{
		"http":    {"url", "headers"},
		"stdio":   {"command", "args"},
		"fixture": {"fixture", "fixturesModule"},
	}
	// snapgaugeMetadata are snapshot keys mcpward never diffs; a volatile
	// selector under them has nothing to do.
	snapgaugeMetadata = []string{"formatVersion", "snapgaugeVersion", "rulesetVersion", "probeSpecHash", "recordedAt", "target"}
)

// parseSnapgauge reads a snapgauge.config.json (snapgauge §2) as strictly
// as snapgauge does: unknown keys are rejected, at the top level and in
// each target, where the keys allowed depend on the target's "transport".
// Each target becomes the mcpward target that reaches the same server the
// same way; what has no use in mcpward is named in File.Warnings.
func parseSnapgauge(top []member) (*File, error) {
	f := &File{Targets: map[string]*Target{}, SnapshotDir: SnapgaugeSnapshotDir, Snapgauge: true}
	sawTargets := false
	for _, m := range top {
		var err error
		switch m.key {
		case "snapshotDir":
			err = snapshotDir(m, f)
		case "targets":
			sawTargets = true
			err = parseSnapgaugeTargets(m.val, f)
		default:
			err = unknownKey("", m.key, []string{"snapshotDir", "targets"})
		}
		if err != nil {
			return nil, snapgaugeErr(err)
		}
	}
	if !sawTargets {
		return nil, snapgaugeErr(perr("", `missing key "targets"`))
	}
	return f, nil
}

// snapgaugeErr says which format the file was read as, so that a mcpward
// config that gained a "transport" key by mistake is not a puzzle.
func snapgaugeErr(err error) error {
	return fmt.Errorf("%w (read as a snapgauge config)", err)
}

func parseSnapgaugeTargets(raw json.RawMessage, f *File) error {
	return eachTarget(raw, func(name, path string, raw json.RawMessage) error {
		t, warnings, err := parseSnapgaugeTarget(path, raw)
		if err != nil {
			return err
		}
		f.Targets[name] = t
		f.Warnings = append(f.Warnings, warnings...)
		return nil
	})
}

func parseSnapgaugeTarget(path string, raw json.RawMessage) (*Target, []string, error) {
	ms, err := object(path, raw)
	if err != nil {
		return nil, nil, err
	}
	transport := ""
	for _, m := range ms {
		if m.key == "transport" {
			if err := str(join(path, "transport"), m.val, &transport); err != nil {
				return nil, nil, err
			}
		}
	}
	own, ok := snapgaugeTransportKeys[transport]
	if !ok {
		if transport == "" {
			return nil, nil, perr(path, `target needs "transport": "http", "stdio" or "fixture"`)
		}
		return nil, nil, perr(join(path, "transport"), `transport %q is not "http", "stdio" or "fixture"`, transport)
	}
	allowed := append(slices.Clone(snapgaugeCommonKeys), own...)
	var warnings []string
	// The keys snapgauge and mcpward share mean the same; they are parsed
	// by mcpward's own target parser, which checks their values.
	var shared bytes.Buffer
	shared.WriteByte('{')
	for _, m := range ms {
		p := join(path, m.key)
		if !slices.Contains(allowed, m.key) {
			return nil, nil, unknownKey(path, m.key, allowed)
		}
		switch m.key {
		case "transport":
			continue
		case "resources":
			uris, err := snapgaugeResources(p, m.val)
			if err != nil {
				return nil, nil, err
			}
			if len(uris) > 0 {
				warnings = append(warnings, fmt.Sprintf("%s.read is not used: mcpward lists the server's resources and reads none of them (snapgauge did not read them either)", p))
			}
			continue
		case "fixturesModule":
			var mod string
			if err := str(p, m.val, &mod); err != nil {
				return nil, nil, err
			}
			if mod != snapgaugeFixturesModule {
				return nil, nil, perr(p, "fixtures module %q cannot be loaded: mcpward runs only its embedded fixtures (see 'mcpward fixture list')", mod)
			}
			continue
		case "volatile":
			sels, dropped, err := snapgaugeVolatile(p, m.val)
			if err != nil {
				return nil, nil, err
			}
			for _, d := range dropped {
				warnings = append(warnings, fmt.Sprintf("%s selector %q is not used: it selects snapshot metadata, which mcpward never diffs", p, d))
			}
			b, _ := json.Marshal(sels)
			m.val = b
		}
		if shared.Len() > 1 {
			shared.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		shared.Write(k)
		shared.WriteByte(':')
		shared.Write(m.val)
	}
	shared.WriteByte('}')
	t, err := parseTarget(path, shared.Bytes())
	if err != nil {
		return nil, nil, err
	}
	return t, warnings, nil
}

// snapgaugeResources reads {"read": [uri…]}.
func snapgaugeResources(path string, raw json.RawMessage) ([]string, error) {
	ms, err := object(path, raw)
	if err != nil {
		return nil, err
	}
	var uris []string
	for _, m := range ms {
		if m.key != "read" {
			return nil, unknownKey(path, m.key, []string{"read"})
		}
		if err := stringList(join(path, "read"), m.val, &uris); err != nil {
			return nil, err
		}
	}
	return uris, nil
}

// snapgaugeVolatile translates snapgauge's volatile selectors, dot paths
// rooted at the snapshot, to mcpward's, rooted at the surface. The
// surface sections have the same names in both (discover, tools,
// toolsList, behavior) and numeric segments index arrays in both, so a
// selector under them is kept as written; one under snapshot metadata
// selects nothing mcpward diffs and is dropped (the caller warns).
func snapgaugeVolatile(path string, raw json.RawMessage) (kept, dropped []string, err error) {
	var sels []string
	if err := stringList(path, raw, &sels); err != nil {
		return nil, nil, err
	}
	kept = []string{}
	for _, s := range sels {
		root, _, _ := strings.Cut(s, ".")
		if slices.Contains(snapgaugeMetadata, root) {
			dropped = append(dropped, s)
			continue
		}
		kept = append(kept, s)
	}
	return kept, dropped, nil
}
