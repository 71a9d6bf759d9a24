package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// manifest parses the server manifest resource (surfaceprint §5.2) with two
// fixes: operations are kept whether or not the entry names a dispatch_key
// (the documented minimal example has none; dropping them silently hid
// operations), with a note saying so; and an empty text is a failed
// section, not an "ok" status with a partial surface.
func (b *builder) manifest(s *Surface, cov *SectionCoverage) {
	me := b.ev.Manifest
	if me == nil {
		return
	}
	cov.Attempted = true
	if me.Err != nil {
		cov.Error = me.Err
		b.note("protocol", "manifest_read_error", me.URI+": "+me.Err.Message)
		return
	}
	if strings.TrimSpace(me.Text) == "" {
		cov.Error = &SectionError{Kind: "malformed", Message: "manifest resource is empty"}
		b.note("protocol", "manifest_empty", me.URI)
		return
	}
	sum := sha256.Sum256([]byte(me.Text))
	provenance := "sha256:" + hex.EncodeToString(sum[:])
	m, noDispatch, dups, err := parseManifest(me.URI, me.Text)
	if err != nil {
		cov.Error = &SectionError{Kind: "malformed", Message: "manifest: " + err.Error()}
		b.note("protocol", "manifest_invalid", provenance)
		return
	}
	b.note("protocol", "manifest_parsed", provenance)
	if len(noDispatch) > 0 {
		b.note("protocol", "manifest_operations_without_dispatch_key", strings.Join(noDispatch, ", "))
	}
	if len(dups) > 0 {
		cov.Error = &SectionError{Kind: "duplicate_operations", Message: "duplicate manifest operations: " + strings.Join(dups, "; ")}
		b.note("protocol", "manifest_duplicate_operations", strings.Join(dups, "; "))
	}
	cov.Items = len(m.Tools)
	cov.Completed = cov.Error == nil
	s.Manifest = m
}

// parseManifest returns the manifest, the tools whose operations came
// without a dispatch_key, and "tool: op" for each duplicated operation.
func parseManifest(uri, text string) (*Manifest, []string, []string, error) {
	o, err := decodeObject([]byte(text))
	if err != nil {
		return nil, nil, nil, err
	}
	tools, ok := o["tools"].(map[string]any)
	if !ok {
		return nil, nil, nil, fmt.Errorf(`"tools" is not an object`)
	}
	m := &Manifest{URI: uri, Tools: []ManifestTool{}}
	var noDispatch, dups []string
	for _, name := range sortedKeys(tools) {
		entry, ok := tools[name].(map[string]any)
		if !ok {
			return nil, nil, nil, fmt.Errorf("tools.%s is not an object", name)
		}
		mt := ManifestTool{Tool: name, Description: Str(entry, "description")}
		if ops, ok := entry["operations"].([]any); ok && len(ops) > 0 {
			seen := map[string]bool{}
			for i, op := range ops {
				s, ok := op.(string)
				if !ok {
					return nil, nil, nil, fmt.Errorf("tools.%s.operations[%d] is not a string", name, i)
				}
				if seen[s] {
					dups = append(dups, name+": "+s)
				}
				seen[s] = true
				mt.Operations = append(mt.Operations, s)
			}
			if Str(entry, "dispatch_key") == "" {
				noDispatch = append(noDispatch, name)
			}
		}
		m.Tools = append(m.Tools, mt)
	}
	slices.SortFunc(m.Tools, func(a, b ManifestTool) int { return strings.Compare(a.Tool, b.Tool) })
	return m, noDispatch, dups, nil
}
