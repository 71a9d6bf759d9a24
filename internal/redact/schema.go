package redact

import (
	"bytes"
	"encoding/json"
)

// toolSecrets are the argument paths of one tool that its input schema
// declares secret, compiled as params.arguments.<path>.
type toolSecrets []path

// ObserveTools learns the input schemas of a tools/list result: result is
// the ListToolsResult ({"tools":[…]}) or the whole response
// ({"result":{"tools":[…]}}). A tool's most recent schema replaces what was
// known of it. An argument (reachable from the schema root through
// "properties") is secret when its schema has format "password",
// writeOnly true, or an x-mcp-header binding with a credential name, or
// when its own name is a credential name; a later tools/call of the tool
// hides it, and its Mcp-Param-* header is hidden too. Only a Redactor with
// Secrets learns. Bytes that are not such a result are ignored.
//
// Frame learns from the tools/list results it is given, in the same pass
// that redacts them; call ObserveTools only for results the Redactor does
// not see as frames.
func (r *Redactor) ObserveTools(result []byte) {
	if !r.Enabled() || !r.secrets {
		return
	}
	s := scanners.Get().(*scanner)
	defer func() {
		s.reset(nil, nil)
		scanners.Put(s)
	}()
	s.reset(r, result)
	if s.document() {
		r.learn(s.learned)
	}
}

// callPaths returns the secret argument paths for frame when it is a
// tools/call of a tool with secret arguments.
func (r *Redactor) callPaths(frame []byte) []path {
	if !r.secrets {
		return nil
	}
	r.mu.RLock()
	n := len(r.tools)
	r.mu.RUnlock()
	if n == 0 || !bytes.Contains(frame, []byte("tools/call")) {
		return nil
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(frame, &msg) != nil || msg.Method != "tools/call" {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.tools[msg.Params.Name]
}
