package fleet

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/contract"
)

// LoadConfig reads the config file at path (as [contract.LoadConfig]
// does, with its errors) and returns it with its target names in the
// order the file lists them: a fleet's report follows the config, not the
// order its targets finished in nor the alphabet.
func LoadConfig(path string) (*config.File, []string, error) {
	cfg, err := contract.LoadConfig(path)
	if err != nil {
		return nil, nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		// Read a moment ago: fall back to the sorted names.
		return cfg, cfg.Names(), nil
	}
	return cfg, Order(data, cfg.Names()), nil
}

// Order returns names (the keys of the config's "targets" object) in the
// order data lists them; a name data does not list (a config built some
// other way) follows, sorted.
func Order(data []byte, names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range targetKeys(data) {
		if slices.Contains(names, n) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, n := range names { // names is sorted
		if !seen[n] {
			out = append(out, n)
		}
	}
	return out
}

// targetKeys returns the keys of the top-level "targets" object in file
// order, or none when data is not shaped so (config.Parse has accepted it
// already, so this only happens to a file that changed in between).
func targetKeys(data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil
		}
		if k != "targets" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return nil
		}
		var keys []string
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return keys
			}
			if s, ok := k.(string); ok {
				keys = append(keys, s)
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return keys
			}
		}
		return keys
	}
	return nil
}
