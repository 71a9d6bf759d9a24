// Command gen writes docs/RULES.md from the rule catalogue
// (`go generate ./internal/rules`).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/mcpward/mcpward/internal/rules"
)

func main() {
	out := flag.String("o", "docs/RULES.md", "output file")
	flag.Parse()
	var buf bytes.Buffer
	if err := rules.WriteMarkdown(&buf); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "gen: write %s: %v\n", *out, err)
		os.Exit(1)
	}
}
