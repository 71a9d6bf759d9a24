package migrate

import "testing"

func TestClassifyFile(t *testing.T) {
	tests := []struct {
		name string
		data string
		want Kind
	}{
		{"snapgauge.config.json", `{"targets":{}}`, SnapgaugeConfig},
		{"x/.mcpsnoop.toml", `label = "fs"`, McpsnoopConfig},
		{".snapgauge/notes.snapshot.json", `{"formatVersion":1,"snapgaugeVersion":"0.9.0","tools":[]}`, SnapgaugeSnapshot},
		{"base.snapshot.json", `{"snapshotFormatVersion":"1","surface":{}}`, SurfaceprintSnapshot},
		{"old.json", `{"server":"toy","risk":"low","tools":[]}`, SurfaceprintLegacy},
		{"result.json", `{"command":"check","findings":[],"summary":{},"gate":{},"exitCode":0}`, SnapgaugeResult},
		{"sessions/fs-1-abc.jsonl", "{\"session_id\":\"fs-1-abc\",\"seq\":1,\"direction\":\"meta\"}\n{}", McpsnoopLog},
		{"state/tool-baselines/0123456789abcdef.json", `{"version":2,"server":"fs","tools":[]}`, McpsnoopBaseline},
		{"Claude/claude_desktop_config.json", `{"mcpServers":{"fs":{"command":"/usr/local/bin/mcpsnoop","args":["--","npx","fs"]}}}`, McpsnoopWrapped},
		{"win.json", `{"mcpServers":{"fs":{"command":"C:\\tools\\mcpsnoop.exe","args":["--","npx"]}}}`, McpsnoopWrapped},
		{"boards/2026-08-09.json", `{"date":"2026-08-09","generatedAt":"2026-08-09T00:00:00Z","snapgaugeVersion":"1.0.0","rows":[]}`, SnapgaugeBoard},
		// Not foreign: mcpward's own files and unrelated JSON.
		{"plain.json", `{"mcpServers":{"fs":{"command":"npx"}}}`, ""},
		{"mcpward.snapshot.json", `{"formatVersion":3,"mcpwardVersion":"1.0.0"}`, ""},
		{"log.jsonl", `{"v":1,"kind":"meta"}`, ""},
		{"r.json", `{"schemaVersion":1,"tool":"mcpward","command":"diff","findings":[],"summary":{},"gate":{},"exitCode":1}`, ""},
		{"package.json", `{"name":"x"}`, ""},
		{"broken.json", `{"server":`, ""},
		{"notes.txt", `{"snapgaugeVersion":"1"}`, ""},
	}
	for _, tt := range tests {
		if got := ClassifyFile(tt.name, []byte(tt.data)); got != tt.want {
			t.Errorf("ClassifyFile(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
