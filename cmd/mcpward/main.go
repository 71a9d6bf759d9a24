// Command mcpward keeps MCP servers honest: contract snapshots, conformance
// probes and a lossless traffic proxy. See the README for a tour.
package main

import (
	"os"

	"github.com/mcpward/mcpward/internal/cli"
)

func main() { os.Exit(cli.Main()) }
