package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ValidMetaKey checks a _meta key against the grammar of DIGEST §1.3:
// [prefix/]name, where the prefix is dot-separated labels
// ([A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?) and the name is empty or
// [A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?. The empty key is rejected: the
// grammar allows an empty name only after a prefix.
func ValidMetaKey(k string) error {
	if k == "" {
		return errors.New("empty _meta key")
	}
	prefix, name, hasPrefix := cutPrefix(k)
	if hasPrefix {
		if err := validPrefix(prefix); err != nil {
			return fmt.Errorf("_meta key %q: %w", k, err)
		}
	}
	if err := validName(name); err != nil {
		return fmt.Errorf("_meta key %q: %w", k, err)
	}
	return nil
}

// ValidExtensionID checks an extension identifier (a key of
// capabilities.extensions): the _meta key grammar with a mandatory prefix.
func ValidExtensionID(id string) error {
	if _, _, ok := cutPrefix(id); !ok {
		return fmt.Errorf("extension id %q: missing prefix (for example io.example/%s)", id, id)
	}
	if err := ValidMetaKey(id); err != nil {
		return fmt.Errorf("extension id: %w", err)
	}
	return nil
}

// IsReservedMetaKey reports whether k's prefix belongs to MCP: its second
// label is "modelcontextprotocol" or "mcp" (io.modelcontextprotocol/,
// dev.mcp/, com.mcp.tools/). com.example.mcp/ and mcp/ are not reserved.
// Labels compare case-insensitively, as DNS names do, so IO.MCP/ is
// reserved too.
func IsReservedMetaKey(k string) bool {
	prefix, _, ok := cutPrefix(k)
	if !ok {
		return false
	}
	labels := strings.Split(prefix, ".")
	if len(labels) < 2 {
		return false
	}
	return strings.EqualFold(labels[1], "modelcontextprotocol") || strings.EqualFold(labels[1], "mcp")
}

// cutPrefix splits at the last "/", since names cannot contain one.
func cutPrefix(k string) (prefix, name string, ok bool) {
	i := strings.LastIndexByte(k, '/')
	if i < 0 {
		return "", k, false
	}
	return k[:i], k[i+1:], true
}

func validPrefix(p string) error {
	if p == "" {
		return errors.New("empty prefix before /")
	}
	for _, label := range strings.Split(p, ".") {
		if label == "" {
			return errors.New("empty label in prefix")
		}
		if !isLetter(label[0]) {
			return fmt.Errorf("prefix label %q must start with a letter", label)
		}
		if !isAlnum(label[len(label)-1]) {
			return fmt.Errorf("prefix label %q must end with a letter or digit", label)
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isAlnum(c) && c != '-' {
				return fmt.Errorf("prefix label %q contains %q", label, c)
			}
		}
	}
	return nil
}

func validName(n string) error {
	if n == "" {
		return nil
	}
	if !isAlnum(n[0]) || !isAlnum(n[len(n)-1]) {
		return fmt.Errorf("name %q must start and end with a letter or digit", n)
	}
	for i := 0; i < len(n); i++ {
		if c := n[i]; !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return fmt.Errorf("name %q contains %q", n, c)
		}
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool  { return isLetter(c) || c >= '0' && c <= '9' }

// RequestMeta builds the _meta envelope every modern request carries
// (DIGEST §1.2): the protocol version, the client capabilities (nil or
// empty means {}, no optional capabilities) and, when it has a name, the
// client's self-description. Add progressToken, logLevel or trace keys to
// the returned map as needed.
func RequestMeta(rev Revision, caps json.RawMessage, clientInfo Implementation) map[string]any {
	if len(caps) == 0 {
		caps = json.RawMessage(`{}`)
	}
	m := map[string]any{
		MetaProtocolVersion:    string(rev),
		MetaClientCapabilities: caps,
	}
	if clientInfo.Name != "" {
		m[MetaClientInfo] = clientInfo
	}
	return m
}
