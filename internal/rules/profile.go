package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Protocol versions the built-in profiles use.
const (
	ModernVersion = "2026-07-28"
	LegacyVersion = "2025-11-25"
)

// Extension ids the full profile declares.
const (
	extTasks = "io.modelcontextprotocol/tasks"
	extUI    = "io.modelcontextprotocol/ui"
)

// Handshakes a profile can use.
const (
	HandshakeDiscover   = "discover"
	HandshakeInitialize = "initialize"
)

// A Profile is one simulated client: the protocol version it speaks, the
// client capabilities and extensions it declares on every request, whether
// it sends the MCP-Protocol-Version header, and its handshake.
type Profile struct {
	Name            string `json:"name"`
	ProtocolVersion string `json:"protocolVersion"`
	// Capabilities is the ClientCapabilities object without extensions.
	Capabilities map[string]json.RawMessage `json:"capabilities"`
	// Extensions maps extension ids to their settings object.
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
	// OmitVersionHeader sends no MCP-Protocol-Version header (HTTP).
	OmitVersionHeader bool `json:"omitVersionHeader,omitempty"`
	// Handshake is "discover" (modern) or "initialize" (legacy).
	Handshake string `json:"handshake"`
	// Builtin marks the profiles mcpward ships.
	Builtin bool `json:"builtin,omitempty"`
	// Description says what the profile simulates.
	Description string `json:"description,omitempty"`
}

// ClientCapabilities returns the ClientCapabilities JSON the profile
// declares: Capabilities plus an "extensions" member when it has any.
// Keys are sorted, so the bytes are stable.
func (p Profile) ClientCapabilities() json.RawMessage {
	m := map[string]json.RawMessage{}
	for k, v := range p.Capabilities {
		m[k] = v
	}
	if len(p.Extensions) > 0 && p.Handshake != HandshakeInitialize {
		b, _ := json.Marshal(p.Extensions)
		m["extensions"] = b
	}
	b, _ := json.Marshal(m)
	return b
}

// Declares reports whether the profile declares a capability or extension
// by name ("elicitation", "io.modelcontextprotocol/tasks").
func (p Profile) Declares(name string) bool {
	if _, ok := p.Capabilities[name]; ok {
		return true
	}
	_, ok := p.Extensions[name]
	return ok
}

// Legacy reports whether the profile uses the initialize handshake.
func (p Profile) Legacy() bool { return p.Handshake == HandshakeInitialize }

func fullCaps() map[string]json.RawMessage {
	return map[string]json.RawMessage{
		"elicitation": json.RawMessage(`{"form":{},"url":{}}`),
		"sampling":    json.RawMessage(`{}`),
		"roots":       json.RawMessage(`{}`),
	}
}

func fullExt() map[string]json.RawMessage {
	return map[string]json.RawMessage{
		extTasks: json.RawMessage(`{}`),
		extUI:    json.RawMessage(`{"mimeTypes":["text/html;profile=mcp-app"]}`),
	}
}

// Baseline is the name of the reference profile.
const Baseline = "modern-full"

// BuiltinProfiles returns snapgauge §5's profiles, in order. "Full" is
// elicitation (form and url), sampling and roots, plus the tasks and ui
// extensions: in 2026-07-28 tasks and ui are extensions, not top-level
// client capabilities.
func BuiltinProfiles() []Profile {
	without := func(name, drop string) Profile {
		c, e := fullCaps(), fullExt()
		delete(c, drop)
		delete(e, drop)
		return Profile{Name: name, ProtocolVersion: ModernVersion, Capabilities: c, Extensions: e, Handshake: HandshakeDiscover, Builtin: true,
			Description: "full minus " + drop}
	}
	return []Profile{
		{Name: "modern-full", ProtocolVersion: ModernVersion, Capabilities: fullCaps(), Extensions: fullExt(), Handshake: HandshakeDiscover, Builtin: true,
			Description: "2026-07-28 with every capability and extension (the baseline)"},
		{Name: "modern-minimal", ProtocolVersion: ModernVersion, Capabilities: map[string]json.RawMessage{}, Handshake: HandshakeDiscover, Builtin: true,
			Description: "2026-07-28 declaring nothing ({})"},
		without("no-elicitation", "elicitation"),
		without("no-sampling", "sampling"),
		without("no-roots", "roots"),
		without("no-tasks", extTasks),
		without("no-ui", extUI),
		{Name: "legacy-2025-11-25", ProtocolVersion: LegacyVersion, Capabilities: map[string]json.RawMessage{
			"elicitation": json.RawMessage(`{}`), "sampling": json.RawMessage(`{}`), "roots": json.RawMessage(`{}`)},
			Handshake: HandshakeInitialize, Builtin: true, Description: "a 2025-11-25 client (initialize handshake)"},
		{Name: "legacy-headers-absent", ProtocolVersion: ModernVersion, Capabilities: fullCaps(), Extensions: fullExt(), OmitVersionHeader: true,
			Handshake: HandshakeDiscover, Builtin: true, Description: "2026-07-28 full, without the MCP-Protocol-Version header (HTTP)"},
	}
}

// BuiltinNames returns the names of the built-in profiles.
func BuiltinNames() []string {
	var out []string
	for _, p := range BuiltinProfiles() {
		out = append(out, p.Name)
	}
	return out
}

// customProfile is the schema of a custom profile in mcpward.json
// ("profiles": {"name": {…}}). Unknown keys are rejected.
type customProfile struct {
	ProtocolVersion string                     `json:"protocolVersion"`
	Capabilities    map[string]json.RawMessage `json:"capabilities"`
	Extensions      map[string]json.RawMessage `json:"extensions"`
	// Header is "send" (default) or "omit" for MCP-Protocol-Version.
	Header string `json:"header"`
	// Handshake defaults from the version's era.
	Handshake string `json:"handshake"`
	// Base names a built-in profile whose fields are the defaults.
	Base        string `json:"base"`
	Description string `json:"description"`
}

// ProfileSchema documents the custom profile object for the config docs.
const ProfileSchema = `{
  "base"?: "<built-in profile name>",      // defaults for every other field
  "protocolVersion"?: "YYYY-MM-DD",         // default 2026-07-28 (or the base's)
  "capabilities"?: {<ClientCapabilities without extensions>},
  "extensions"?: {"<extension id>": {settings}},
  "header"?: "send" | "omit",               // MCP-Protocol-Version on HTTP
  "handshake"?: "discover" | "initialize",  // default from the version's era
  "description"?: "…"
}`

// ParseProfile decodes a custom profile from the config. Unknown keys,
// a version that is not a date, and a handshake that contradicts the
// version's era are errors.
func ParseProfile(name string, raw []byte) (Profile, error) {
	var c customProfile
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Profile{}, fmt.Errorf("profile %s: %w", name, err)
	}
	p := Profile{Name: name, ProtocolVersion: ModernVersion, Capabilities: map[string]json.RawMessage{}, Description: c.Description}
	if c.Base != "" {
		b, ok := BuiltinProfile(c.Base)
		if !ok {
			return Profile{}, fmt.Errorf("profile %s: unknown base %q (built-ins: %s)", name, c.Base, strings.Join(BuiltinNames(), ", "))
		}
		p = b
		p.Name, p.Builtin = name, false
		if c.Description != "" {
			p.Description = c.Description
		}
	}
	if c.ProtocolVersion != "" {
		if !isDate(c.ProtocolVersion) {
			return Profile{}, fmt.Errorf("profile %s: protocolVersion %q is not a YYYY-MM-DD version", name, c.ProtocolVersion)
		}
		p.ProtocolVersion = c.ProtocolVersion
	}
	if c.Capabilities != nil {
		if _, ok := c.Capabilities["extensions"]; ok {
			return Profile{}, fmt.Errorf("profile %s: put extensions in \"extensions\", not in capabilities", name)
		}
		p.Capabilities = c.Capabilities
	}
	if c.Extensions != nil {
		p.Extensions = c.Extensions
	}
	switch c.Header {
	case "":
	case "send":
		p.OmitVersionHeader = false
	case "omit":
		p.OmitVersionHeader = true
	default:
		return Profile{}, fmt.Errorf("profile %s: header must be \"send\" or \"omit\", got %q", name, c.Header)
	}
	legacy := p.ProtocolVersion < ModernVersion
	switch c.Handshake {
	case "":
		p.Handshake = HandshakeDiscover
		if legacy {
			p.Handshake = HandshakeInitialize
		}
	case HandshakeDiscover, HandshakeInitialize:
		if (c.Handshake == HandshakeInitialize) != legacy {
			return Profile{}, fmt.Errorf("profile %s: handshake %q does not fit protocolVersion %s", name, c.Handshake, p.ProtocolVersion)
		}
		p.Handshake = c.Handshake
	default:
		return Profile{}, fmt.Errorf("profile %s: handshake must be \"discover\" or \"initialize\", got %q", name, c.Handshake)
	}
	return p, nil
}

// BuiltinProfile returns the built-in profile called name.
func BuiltinProfile(name string) (Profile, bool) {
	for _, p := range BuiltinProfiles() {
		if p.Name == name {
			return p, true
		}
	}
	return Profile{}, false
}

// ResolveProfiles turns profile names into profiles: built-ins first, then
// the custom ones (raw JSON by name). No names means every built-in
// (snapgauge's help promised this and its code used modern-full only).
// The baseline (modern-full if listed, else the first) comes first.
func ResolveProfiles(names []string, custom map[string]json.RawMessage) ([]Profile, error) {
	if len(names) == 0 {
		return BuiltinProfiles(), nil
	}
	var out []Profile
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		if raw, ok := custom[n]; ok {
			p, err := ParseProfile(n, raw)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
			continue
		}
		p, ok := BuiltinProfile(n)
		if !ok {
			known := BuiltinNames()
			for k := range custom {
				known = append(known, k)
			}
			return nil, fmt.Errorf("unknown profile %q (known: %s)", n, strings.Join(known, ", "))
		}
		out = append(out, p)
	}
	if i := slices.IndexFunc(out, func(p Profile) bool { return p.Name == Baseline }); i > 0 {
		b := out[i]
		out = append(out[:i], out[i+1:]...)
		out = append([]Profile{b}, out...)
	}
	return out, nil
}

func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i := range 10 {
		if i != 4 && i != 7 && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}
