package snapshot

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"
)

// Raw pages as the clean@v1 fixture sends them (snapgauge §11): tools in
// the observed, non-alphabetical order get_weather, archive_note,
// list_notes.
const (
	cleanDiscover = `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":false},"resources":{}},"serverInfo":{"name":"clean-fixture","version":"1.0.0"},"instructions":"Notes demo server: look up weather and manage notes.","ttlMs":60000,"cacheScope":"public","resultType":"complete"}`

	cleanTools = `{"tools":[
{"name":"get_weather","title":"Get weather","description":"Get the current weather for a location.",
 "inputSchema":{"type":"object","properties":{"location":{"type":"string","description":"City name"},"units":{"type":"string","enum":["metric","imperial"]}},"required":["location"]},
 "outputSchema":{"type":"object","properties":{"tempC":{"type":"number"},"conditions":{"type":"string","enum":["sunny","rain"]}},"required":["tempC"]},
 "icons":[{"src":"https://example.com/weather.svg","mimeType":"image/svg+xml","sizes":["64x64"]}],
 "_meta":{"vendor/build":"1"},"x-vendor-rank":1.50},
{"name":"archive_note","description":"Archive a note by id.",
 "inputSchema":{"type":"object","properties":{"id":{"type":"string"},"workspace":{"type":"string","x-mcp-header":"X-Workspace"}},"required":["id"]},
 "annotations":{"idempotentHint":true,"destructiveHint":true}},
{"name":"list_notes","description":"List notes.",
 "inputSchema":{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":100}}},
 "annotations":{"readOnlyHint":true}}
],"ttlMs":60000,"cacheScope":"public","resultType":"complete"}`

	cleanResources = `{"resources":[{"uri":"notes://mcp/manifest","name":"manifest","mimeType":"application/json"},{"uri":"notes://all","name":"all-notes","description":"Every note","mimeType":"text/plain","size":1024}],"ttlMs":30000,"cacheScope":"private","resultType":"complete"}`

	cleanTemplates = `{"resourceTemplates":[{"uriTemplate":"notes://note/{id}","name":"note","mimeType":"text/plain"}],"ttlMs":30000,"cacheScope":"private"}`

	cleanPrompts = `{"prompts":[{"name":"summarize","description":"Summarize notes","arguments":[{"name":"topic","required":true},{"name":"length","description":"words"}]}],"ttlMs":30000,"cacheScope":"public"}`

	cleanManifest = `{"version":"1.0.0","tools":{"archive_note":{"description":"Archive operations","dispatch_key":"action","operations":["archive","restore"]},"list_notes":{"description":"Listing"}}}`
)

func cleanEvidence() *Evidence {
	return &Evidence{
		RecordedAt:         time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Target:             TargetInfo{Name: "clean", Transport: "fixture", Fixture: "clean@v1", Auth: "none"},
		Era:                EraModern,
		ProtocolVersion:    "2026-07-28",
		ClientCapabilities: json.RawMessage(`{"elicitation":{},"sampling":{}}`),
		ClientInfo:         json.RawMessage(`{"name":"mcpward","version":"0.0.0-test"}`),
		Discover:           json.RawMessage(cleanDiscover),
		Tools:              ListEvidence{Attempted: true, Pages: []json.RawMessage{json.RawMessage(cleanTools)}},
		ToolsRepeats: []ListEvidence{
			{Attempted: true, Pages: []json.RawMessage{json.RawMessage(cleanTools)}},
			{Attempted: true, Pages: []json.RawMessage{json.RawMessage(cleanTools)}},
		},
		Resources:         ListEvidence{Attempted: true, Pages: []json.RawMessage{json.RawMessage(cleanResources)}},
		ResourceTemplates: ListEvidence{Attempted: true, Pages: []json.RawMessage{json.RawMessage(cleanTemplates)}},
		Prompts:           ListEvidence{Attempted: true, Pages: []json.RawMessage{json.RawMessage(cleanPrompts)}},
		Manifest:          &ManifestEvidence{URI: "notes://mcp/manifest", Text: cleanManifest},
		Probes: []ProbeEvidence{
			{ID: "weather", Tool: "get_weather", Capture: CaptureShape, HTTPStatus: 200, ContentType: "application/json",
				Result: json.RawMessage(`{"resultType":"complete","content":[{"type":"text","text":"Seattle: 12C, rain"}],"structuredContent":{"tempC":12,"conditions":"rain","requestId":"abc"},"isError":false,"_meta":{"vendor/trace":"x","a/b":1}}`)},
			{ID: "weather-noargs", Tool: "get_weather", HTTPStatus: 200, ContentType: "application/json",
				Error: json.RawMessage(`{"code":-32602,"message":"missing location"}`)},
			{ID: "archive", Tool: "archive_note", Capture: CaptureValues, HTTPStatus: 200, ContentType: "text/event-stream",
				Result: json.RawMessage(`{"resultType":"complete","content":[{"type":"text","text":"archived n1"},{"type":"image","data":"aGk=","mimeType":"image/png"}],"structuredContent":{"id":"n1","timestamp":"2026-01-01T00:00:00Z","items":[1,2]}}`)},
		},
		Stderr: "clean fixture listening\n",
		Notes:  []Note{{Kind: "prober", Rule: "example", Snippet: "note from the prober"}},
	}
}

func cleanSpec() ProbeSpec {
	return ProbeSpec{
		Probes: []ProbeDecl{
			{ID: "weather", Tool: "get_weather", Arguments: json.RawMessage(`{"location":"Seattle"}`)},
			{ID: "weather-noargs", Tool: "get_weather"},
			{ID: "archive", Tool: "archive_note", Arguments: json.RawMessage(`{"id":"n1","workspace":"acme"}`), Capture: CaptureValues},
		},
		Profiles: []string{"modern-full"},
	}
}

func legacyEvidence() *Evidence {
	return &Evidence{
		RecordedAt:      time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC),
		Target:          TargetInfo{Transport: "stdio", Command: "node", Args: []string{"server.js"}},
		Era:             EraLegacy,
		ProtocolVersion: "2025-06-18",
		Initialize:      json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"legacy","version":"0.9.0"},"instructions":"hi"}`),
		DiscoverError:   &SectionError{Kind: "unsupported", Code: -32601, Message: "Method not found"},
		Tools: ListEvidence{Attempted: true, Pages: []json.RawMessage{
			json.RawMessage(`{"tools":[{"name":"b_tool","inputSchema":{"type":"object"}}],"nextCursor":"2"}`),
			json.RawMessage(`{"tools":[{"name":"a_tool","inputSchema":{"type":"object","properties":{"n":{"type":["integer","null"]}}}}]}`),
		}},
		Prompts: ListEvidence{Attempted: true, Err: &SectionError{Kind: "unsupported", Code: -32601, Message: "Method not found"}},
	}
}

// reverseKeys rewrites a JSON document with every object's keys in reverse
// order and extra whitespace, keeping number literals as written.
func reverseKeys(b []byte) []byte {
	var buf bytes.Buffer
	var walk func(raw json.RawMessage)
	walk = func(raw json.RawMessage) {
		raw = bytes.TrimSpace(raw)
		switch {
		case len(raw) > 0 && raw[0] == '{':
			var m map[string]json.RawMessage
			if err := json.Unmarshal(raw, &m); err != nil {
				panic(err)
			}
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			slices.Reverse(keys)
			buf.WriteString("{ ")
			for i, k := range keys {
				if i > 0 {
					buf.WriteString(" ,\n")
				}
				kb, _ := json.Marshal(k)
				buf.Write(kb)
				buf.WriteString(" : ")
				walk(m[k])
			}
			buf.WriteString(" }")
		case len(raw) > 0 && raw[0] == '[':
			var a []json.RawMessage
			if err := json.Unmarshal(raw, &a); err != nil {
				panic(err)
			}
			buf.WriteString("[ ")
			for i, e := range a {
				if i > 0 {
					buf.WriteString(", ")
				}
				walk(e)
			}
			buf.WriteString(" ]")
		default:
			buf.Write(raw)
		}
	}
	walk(b)
	return buf.Bytes()
}

func shuffled(ev *Evidence) *Evidence {
	r := func(m json.RawMessage) json.RawMessage {
		if m == nil {
			return nil
		}
		return reverseKeys(m)
	}
	rl := func(l ListEvidence) ListEvidence {
		out := l
		out.Pages = nil
		for _, p := range l.Pages {
			out.Pages = append(out.Pages, r(p))
		}
		return out
	}
	out := *ev
	out.Discover = r(ev.Discover)
	out.Initialize = r(ev.Initialize)
	out.Tools = rl(ev.Tools)
	out.ToolsRepeats = nil
	for _, l := range ev.ToolsRepeats {
		out.ToolsRepeats = append(out.ToolsRepeats, rl(l))
	}
	out.Resources = rl(ev.Resources)
	out.ResourceTemplates = rl(ev.ResourceTemplates)
	out.Prompts = rl(ev.Prompts)
	// The manifest text is left alone: its sha256 is kept as provenance, so
	// different bytes rightly give a different note.
	out.Probes = nil
	for _, p := range ev.Probes {
		p.Result = r(p.Result)
		p.Error = r(p.Error)
		out.Probes = append(out.Probes, p)
	}
	return &out
}
