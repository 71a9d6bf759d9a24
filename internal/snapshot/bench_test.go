package snapshot

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func BenchmarkBuild5000(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"tools":[`)
	for i := range 5000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"name":"tool_%05d","description":"Does thing %d","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"],"enum":[3,1,2]}},"required":["b","a"]},"annotations":{"readOnlyHint":true},"_meta":{"vendor/id":%d}}`, i, i, i)
	}
	sb.WriteString(`],"ttlMs":60000,"cacheScope":"public"}`)
	page := json.RawMessage(sb.String())
	ev := cleanEvidence()
	ev.Tools = ListEvidence{Attempted: true, Pages: []json.RawMessage{page}}
	ev.ToolsRepeats = []ListEvidence{ev.Tools, ev.Tools}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Build(ev, nil); err != nil {
			b.Fatal(err)
		}
	}
}
