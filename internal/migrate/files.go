package migrate

import (
	"bytes"
	"path"
	"strings"

	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoop"
)

// Kinds of foreign files that are not snapshots. `mcpward migrate` finds
// them in a repository or a home directory.
const (
	SnapgaugeConfig  Kind = "snapgauge config"
	SnapgaugeResult  Kind = "snapgauge result"
	SnapgaugeBoard   Kind = "snapgauge board"
	McpsnoopLog      Kind = "mcpsnoop session log"
	McpsnoopConfig   Kind = "mcpsnoop config"
	McpsnoopBaseline Kind = "mcpsnoop tool baseline"
	McpsnoopWrapped  Kind = "client config wrapped by mcpsnoop"
)

// SniffHead is how much of a file ClassifyFile needs for a log: its first
// line. JSON documents are classified on their whole text.
const SniffHead = 64 << 10

// ClassifyFile tells what foreign file name (a slash path; only its base
// and parent directory matter) holds, from data: the whole file for a JSON
// document, or at least its first line for a log. It returns "" for a file
// that is none of the formats mcpward reads.
func ClassifyFile(name string, data []byte) Kind {
	base := path.Base(name)
	switch {
	case base == ".mcpsnoop.toml":
		return McpsnoopConfig
	case base == "snapgauge.config.json":
		return SnapgaugeConfig
	case strings.HasSuffix(base, ".jsonl"):
		if mcpsnoop.Sniff(data) {
			return McpsnoopLog
		}
		return ""
	case !strings.HasSuffix(base, ".json"):
		return ""
	}
	keys := topLevelKeys(data)
	switch {
	case len(keys) == 0:
		return ""
	case keys["version"] && keys["server"] && keys["tools"] && path.Base(path.Dir(name)) == "tool-baselines":
		return McpsnoopBaseline
	case keys["mcpServers"] && wrappedByMcpsnoop(data):
		return McpsnoopWrapped
	case keys["command"] && keys["gate"] && keys["findings"] && keys["summary"] && !keys["schemaVersion"] && !keys["tool"]:
		// (schemaVersion and tool are mcpward's own Result's, as in
		// snapgauge.IsResult: nothing to migrate.)
		return SnapgaugeResult
	case keys["snapgaugeVersion"] && keys["rows"] && keys["date"]:
		return SnapgaugeBoard
	}
	return SniffSnapshot(data)
}

// wrappedByMcpsnoop reports whether any mcpServers entry of a client config
// runs mcpsnoop as its command.
func wrappedByMcpsnoop(data []byte) bool {
	found := false
	jsonrpc.Members(bytes.TrimSpace(data), func(name, value []byte) bool {
		if string(name) != "mcpServers" {
			return true
		}
		jsonrpc.Members(value, func(_, entry []byte) bool {
			jsonrpc.Members(entry, func(k, v []byte) bool {
				if string(k) == "command" && isMcpsnoopCommand(v) {
					found = true
				}
				return !found
			})
			return !found
		})
		return false
	})
	return found
}

// isMcpsnoopCommand reports whether the raw JSON string v names the mcpsnoop
// binary (any directory, with or without .exe).
func isMcpsnoopCommand(v []byte) bool {
	s := strings.Trim(string(v), `"`)
	s = strings.ReplaceAll(s, `\\`, `/`)
	s = strings.TrimSuffix(path.Base(s), ".exe")
	return s == "mcpsnoop"
}
