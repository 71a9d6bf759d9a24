package snapshot_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpward/mcpward/internal/snapshot"
)

func ExampleBuild() {
	ev := &snapshot.Evidence{
		RecordedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Target:     snapshot.TargetInfo{Transport: "fixture", Fixture: "tiny"},
		Era:        snapshot.EraModern,
		Discover:   json.RawMessage(`{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"tiny","version":"1.0.0"},"ttlMs":0,"cacheScope":"public"}`),
		Tools: snapshot.ListEvidence{Attempted: true, Pages: []json.RawMessage{
			json.RawMessage(`{"tools":[{"name":"b","inputSchema":{"type":"object"}}],"nextCursor":"p2","ttlMs":0,"cacheScope":"public"}`),
			json.RawMessage(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"ttlMs":0,"cacheScope":"public"}`),
		}},
	}
	snap, err := snapshot.Build(ev, &snapshot.BuildOptions{MCPWardVersion: "0.1.0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(snap.Observation.Status, snap.Surface.ToolNames(), snap.Surface.ToolsList.Order, snap.Surface.ToolsList.Pages)
	fmt.Println(snap.SurfaceDigest != "")
	// Output:
	// ok [a b] [b a] 2
	// true
}

func ExampleUnmarshalLazy() {
	ev := &snapshot.Evidence{
		RecordedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Era:        snapshot.EraModern,
		Tools: snapshot.ListEvidence{Attempted: true, Pages: []json.RawMessage{
			json.RawMessage(`{"tools":[{"name":"b","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]}`),
		}},
	}
	built, err := snapshot.Build(ev, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	file, err := snapshot.Marshal(built)
	if err != nil {
		fmt.Println(err)
		return
	}
	snap, err := snapshot.UnmarshalLazy(file)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The tools are checked, named and kept as their bytes in file.
	fmt.Println(snap.Surface.Tools == nil, snap.Surface.ToolNames(), len(snap.Surface.RawTools()))
	tool, err := snap.Surface.RawTools()[0].Decode()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tool["inputSchema"])
	// Output:
	// true [a b] 2
	// map[type:object]
}
