// Package bigsurface generates the large snapshots the benchmarks of
// `mcpward diff` use: n tools with realistic schemas (nested objects,
// enums, arrays, descriptions on every property, an output schema,
// annotations, _meta and x-mcp-header bindings), about 2.4 KB per tool in
// the snapshot file, so 5,000 tools make a file of about 12 MB.
//
// Variant 0 is the old side; variant 1 changes every tenth tool in ways
// that give findings of every tier (descriptions, required inputs, enum
// values, types, annotations, headers), drops one tool in 500 and adds as
// many, so a diff of the two renders a report of a few thousand lines.
package bigsurface

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/snapshot"
)

// Evidence returns the observation of a server with n tools.
func Evidence(n, variant int) *snapshot.Evidence {
	page := ToolsPage(n, variant)
	l := snapshot.ListEvidence{Attempted: true, Pages: []json.RawMessage{page}}
	return &snapshot.Evidence{
		RecordedAt:         time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Target:             snapshot.TargetInfo{Name: "big", Transport: "fixture", Fixture: "bigsurface", Auth: "none"},
		Era:                snapshot.EraModern,
		ProtocolVersion:    "2026-07-28",
		ClientCapabilities: json.RawMessage(`{}`),
		ClientInfo:         json.RawMessage(`{"name":"mcpward","version":"bench"}`),
		Discover:           json.RawMessage(`{"supportedVersions":["2025-11-25","2026-07-28"],"capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"bigsurface","version":"1.0.0"},"ttlMs":60000,"cacheScope":"public","resultType":"complete"}`),
		Tools:              l,
		ToolsRepeats:       []snapshot.ListEvidence{l},
	}
}

// Snapshot returns the snapshot file bytes of a server with n tools.
func Snapshot(n, variant int) ([]byte, error) {
	s, err := snapshot.Build(Evidence(n, variant), nil)
	if err != nil {
		return nil, err
	}
	return snapshot.Marshal(s)
}

var words = strings.Fields("account archive batch bucket cache channel cluster commit contact cursor " +
	"dataset deploy document domain draft event export feature file folder invoice issue job key label " +
	"ledger message metric note order package page payment pipeline policy project queue record region " +
	"release report repository ticket schedule secret session snapshot stream subscription table task " +
	"team template token topic user volume webhook workflow")

// ToolsPage returns one tools/list result holding n tools, compact, in
// the order a server would send them (not sorted).
func ToolsPage(n, variant int) json.RawMessage {
	var b strings.Builder
	b.Grow(n * 1400)
	b.WriteString(`{"tools":[`)
	first := true
	for i := range n {
		changed := variant == 1 && i%10 == 3
		if variant == 1 && i%500 == 7 {
			continue // removed
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		writeTool(&b, i, "", changed)
		if variant == 1 && i%500 == 11 {
			b.WriteByte(',')
			writeTool(&b, i, "_v2", false) // added
		}
	}
	b.WriteString(`],"ttlMs":60000,"cacheScope":"public"}`)
	return json.RawMessage(b.String())
}

func writeTool(b *strings.Builder, i int, suffix string, changed bool) {
	w := func(k int) string { return words[(i*7+k*13)%len(words)] }
	noun, other := w(0), w(1)
	name := fmt.Sprintf("%s_%s_%05d%s", noun, other, i, suffix)
	desc := fmt.Sprintf("Look up, create or update the %s of a %s. Returns the %s with its %s, %s and %s fields. Use it when the user asks about a %s; it never deletes anything.",
		noun, other, noun, w(2), w(3), w(4), noun)
	if changed {
		desc += " Results are paginated."
	}
	enum := `"draft","open","closed","archived","deleted"`
	if changed {
		enum = `"draft","open","closed","archived"`
	}
	required := `"id","mode"`
	if changed {
		required = `"id","mode","limit"`
	}
	limitType := `"integer"`
	if changed {
		limitType = `["integer","string"]`
	}
	header := ""
	if i%5 == 0 {
		header = `,"x-mcp-header":"X-Region"`
	}
	readOnly := i%2 == 0
	if changed && i%20 == 3 {
		readOnly = !readOnly
	}
	fmt.Fprintf(b, `{"name":%q,"title":"%s %s","description":%q,`, name, noun, other, desc)
	fmt.Fprintf(b, `"inputSchema":{"type":"object","additionalProperties":false,"required":[%s],"properties":{`+
		`"id":{"type":"string","description":"The %s id, as returned by the list call.","minLength":1},`+
		`"mode":{"type":"string","description":"What to do with the %s.","enum":["get","create","update"]},`+
		`"status":{"type":"string","description":"Only %ss in this state.","enum":[%s]},`+
		`"limit":{"type":%s,"description":"At most this many results.","minimum":1},`+
		`"region":{"type":"string","description":"Where the %s lives."%s}`+
		`}},`, required, noun, noun, noun, enum, limitType, noun, header)
	fmt.Fprintf(b, `"outputSchema":{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"}}}},"nextCursor":{"type":["string","null"]}},"required":["items"]},`)
	fmt.Fprintf(b, `"annotations":{"title":"%s %s","readOnlyHint":%t,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false},`, noun, other, readOnly)
	fmt.Fprintf(b, `"_meta":{"vendor/id":%d,"vendor/category":%q}}`, i, other)
}
