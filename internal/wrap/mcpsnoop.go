package wrap

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/mcpward/mcpward/internal/migrate/mcpsnoop"
)

// mcpsnoop reports whether the entry runs through mcpsnoop's stdio shim
// (read by internal/migrate/mcpsnoop).
func (e *entry) mcpsnoop() (*mcpsnoop.Shim, bool) { return mcpsnoop.ParseShim(e.cmd, e.argv) }

// fromMcpsnoop is Wrap of an entry mcpsnoop wraps: it runs through mcpward
// instead, with mcpsnoop's flags after spec's unless spec sets the same flag.
func fromMcpsnoop(doc []byte, e *entry, s *mcpsnoop.Shim, server string, spec Spec) ([]byte, error) {
	args, err := s.ProxyArgs(server, spec.Flags)
	if err != nil {
		return doc, err
	}
	return e.rewrite(doc, spec.Mcpward, args), nil
}

// sameJSON reports whether a and b hold the same JSON value: member order
// and white space aside, numbers compared by their literal. JSONC (with
// comments) is never the same.
func sameJSON(a, b []byte) bool {
	decode := func(data []byte) (any, bool) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil || d.More() {
			return nil, false
		}
		return v, true
	}
	va, ok := decode(a)
	if !ok {
		return false
	}
	vb, ok := decode(b)
	return ok && reflect.DeepEqual(va, vb)
}
