// Command gen writes the snapshot files the big-surface measurements of
// `mcpward diff` use: `go run ./bench/bigsurface/gen -n 5000 DIR` writes
// DIR/old.snapshot.json (variant 0) and DIR/new.snapshot.json (variant 1),
// about 12.9 MB each.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpward/mcpward/bench/bigsurface"
)

func main() {
	n := flag.Int("n", 5000, "number of tools")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gen [-n N] DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	for v, name := range []string{"old", "new"} {
		b, err := bigsurface.Snapshot(*n, v)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name+".snapshot.json"), b, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
