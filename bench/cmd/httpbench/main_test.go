package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(roleEnv); role != "" {
		os.Exit(runRole(role))
	}
	os.Exit(m.Run())
}

// TestHarnessRuns runs every workload through every relay once with a few
// requests: the harness works end to end (processes start, responses
// arrive whole through each relay). It asserts no timing.
func TestHarnessRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("starts four processes")
	}
	var out bytes.Buffer
	if err := drive(&out, Config{Rounds: 1, Scale: 1, Latency: 3, Load: 16}); err != nil {
		t.Fatal(err)
	}
	for _, w := range workloads {
		for _, k := range kinds {
			if !strings.Contains(out.String(), "| "+w.name+" | "+k+" |") {
				t.Errorf("no row for %s through %s in\n%s", w.name, k, out.String())
			}
		}
	}
}
