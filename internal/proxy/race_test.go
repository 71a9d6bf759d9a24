//go:build race

package proxy

// raceEnabled: the race detector makes byte-wise JSON scanning of 64 MiB
// frames too slow, so the biggest test records to memory instead.
const raceEnabled = true
