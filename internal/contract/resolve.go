package contract

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/transport"
)

// Flags is a target named on the command line (the CLI's TargetFlags):
// whether one was given, the config entry it builds, how that entry's own
// errors are marked (cmdutil.FlagErrorWrap), and its --timeout.
type Flags interface {
	Set() bool
	Entry() (*config.Target, error)
	FlagError(error) error
	RequestTimeout() time.Duration
}

// Resolved is a target with where its snapshot lives.
type Resolved struct {
	*Target
	// Path is the snapshot file.
	Path string
}

// Resolve finds the target the flags and config name, shared by record and
// check: a target given by flags (name required, --dir or .mcpward), else
// the config's target (timeoutSet: --timeout overrides the config's).
// Config warnings go to warn.
func Resolve(name, configPath, dir string, tf Flags, timeoutSet bool, lookup func(string) (string, bool), warn io.Writer) (_ *Resolved, err error) {
	if tf.Set() {
		ct, err := tf.Entry()
		if err != nil {
			return nil, err
		}
		t, err := FromEntry(name, ct, &connect.Source{Lookup: lookup, Flags: tf.FlagError, Timeout: tf.RequestTimeout()})
		if err != nil {
			return nil, err
		}
		if dir == "" {
			dir = config.DefaultSnapshotDir
		}
		return &Resolved{Target: t, Path: SnapshotPath(dir, name)}, nil
	}
	explicit := configPath != ""
	if !explicit {
		if configPath, err = DefaultConfigPath(); err != nil {
			return nil, err
		}
	}
	cfg, err := LoadConfig(configPath)
	if err != nil {
		if errors.Is(err, ErrNoConfig) {
			if explicit {
				return nil, err
			}
			if name != "" {
				// A name alone is looked up in the config; say how to
				// give the server itself.
				return nil, fault.WithHint(fault.Input(fmt.Errorf("no %s here to find target %q in", config.FileName, name)),
					"say how to reach it (--url URL, --fixture NAME or -- <command…>), or write a config with 'mcpward init'")
			}
			return nil, fault.WithHint(fault.Input(fmt.Errorf("no %s here and no target given", config.FileName)),
				"run 'mcpward init --url URL' (or --fixture NAME, --command CMD) to write one, or name a target with --fixture/--url/-- <command…>")
		}
		return nil, err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(warn, "warning: config %s: %s\n", configPath, w)
	}
	tname, _, err := cfg.Target(name)
	if err != nil {
		return nil, fault.Input(fmt.Errorf("config %s: %w", configPath, err))
	}
	src := connect.Source{Lookup: lookup}
	if timeoutSet {
		src.Timeout = tf.RequestTimeout()
	}
	t, err := FromFile(configPath, cfg, tname, src, warn)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", configPath, err)
	}
	if dir == "" {
		dir = SnapshotDir(configPath, cfg)
	}
	return &Resolved{Target: t, Path: SnapshotPath(dir, tname)}, nil
}

// StderrLines is how many of a failed server's last stderr lines are shown.
const StderrLines = 10

// WriteProblems prints one line per problem of an incomplete observation,
// then the last lines the server wrote to stderr under a heading.
func WriteProblems(w io.Writer, obs *Observation) {
	for _, p := range obs.Problems {
		fmt.Fprintf(w, "incomplete: %s\n", p)
	}
	fmt.Fprint(w, transport.StderrBlock(obs.Stderr, StderrLines))
}

// Clock returns a clock pinned to t, or now (time.Now when nil) when t is
// zero.
func Clock(now func() time.Time, t time.Time) func() time.Time {
	if !t.IsZero() {
		return func() time.Time { return t }
	}
	if now == nil {
		return time.Now
	}
	return now
}
