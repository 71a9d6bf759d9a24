package cmdutil

import (
	"encoding/json"
	"strings"
)

// JSONObjectFlag validates that a flag's value is one JSON object and
// returns its bytes.
func JSONObjectFlag(name, value string) (json.RawMessage, error) {
	v := strings.TrimSpace(value)
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(v), &obj); err != nil || obj == nil {
		return nil, FlagErrorf("%s must be a JSON object, got %q", name, value)
	}
	return json.RawMessage(v), nil
}
