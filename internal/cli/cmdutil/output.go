package cmdutil

import (
	"fmt"
	"os"

	"github.com/mcpward/mcpward/internal/fault"
)

// CheckOutputPath fails with an input error (exit 4) when the file a
// command is about to write is a directory, before any work is done. An
// atomic write over a directory otherwise fails at the final rename with a
// temporary file's name in the message.
func CheckOutputPath(what, path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fault.Input(fmt.Errorf("%s %s is a directory", what, path))
	}
	return nil
}
