package contract

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/fault"
)

type noFlags struct{ timeout time.Duration }

func (noFlags) Set() bool                       { return false }
func (noFlags) Entry() (*config.Target, error)  { return nil, errors.New("no target") }
func (noFlags) FlagError(err error) error       { return err }
func (f noFlags) RequestTimeout() time.Duration { return f.timeout }

// TestResolveNoConfigHint: without mcpward.json and without a target the
// error is an input error that carries its remedy, a fault.Hint the CLI
// prints.
func TestResolveNoConfigHint(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, name := range []string{"", "weather"} {
		_, err := Resolve(name, "", "", noFlags{}, false, nil, io.Discard)
		if !errors.Is(err, fault.ErrInput) {
			t.Fatalf("Resolve(%q) = %v, want an input error", name, err)
		}
		if !strings.Contains(fault.HintOf(err), "mcpward init") {
			t.Errorf("Resolve(%q) = %v: want a hint naming mcpward init", name, err)
		}
	}
}
