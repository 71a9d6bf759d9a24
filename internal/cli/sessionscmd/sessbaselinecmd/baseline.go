// Package sessbaselinecmd implements `mcpward sessions baseline`: record, accept
// or reset the trusted tool definitions of a server from a session log.
package sessbaselinecmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessionargs"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/sessionlog"
)

// BaselineOptions are the inputs of `sessions baseline`.
type BaselineOptions struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	Now     func() time.Time
	Log     []string
	Dir     string
	Accept  bool
	Reset   bool
}

// NewCmdBaseline builds `mcpward sessions baseline`.
func NewCmdBaseline(f *cmdutil.Factory, runF func(*BaselineOptions) error) *cobra.Command {
	opts := &BaselineOptions{IO: f.IOStreams, Factory: f, Now: f.Now}
	cmd := &cobra.Command{
		Use:   "baseline [--accept|--reset] [LOG]",
		Short: "Trust a server's tool definitions, and show drift from them",
		Long: `Baselines are keyed by server identity: label, serverInfo name and command
line (or URL). Without flags, the first run for an identity records the last
complete tools/list of the newest session as the baseline; later runs print the
drift and exit 1 if there is any. --accept replaces the baseline with the
session's tools; --reset deletes it. The live UI and 'sessions check' of the
state directory's own logs also record a first-seen server's tools (trust on
first use; --no-tofu, or no-tofu = true in .mcpward.toml, turns that off).
A baseline converted from mcpsnoop's by 'mcpward migrate' is keyed by label
alone and judges every session with that label until one is accepted here.`,
		Example: `  mcpward sessions baseline                    # record, or show drift from, the newest session's tools
  mcpward sessions baseline run.jsonl --accept # trust this log's tools instead
  mcpward sessions baseline --reset            # forget the baseline`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Accept && opts.Reset {
				return cmdutil.FlagErrorf("--accept and --reset cannot be combined")
			}
			if len(args) > 1 {
				return cmdutil.FlagErrorf("want at most one log")
			}
			opts.Log = args
			if runF != nil {
				return runF(opts)
			}
			return baselineRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Dir, "baseline", "", "baseline `dir` (default <state>/baselines)")
	cmd.Flags().BoolVar(&opts.Accept, "accept", false, "replace the baseline with this session's tools")
	cmd.Flags().BoolVar(&opts.Reset, "reset", false, "delete the baseline")
	cmdutil.AddStateDirFlag(cmd, f)
	cmd.ValidArgsFunction = sessionargs.CompleteSessions(f)
	return cmd
}

func baselineRun(opts *BaselineOptions) error {
	paths, err := sessionargs.Resolve(opts.Factory, opts.Log, "", "")
	if err != nil {
		return err
	}
	dir := opts.Dir
	if dir == "" {
		state, err := sessionargs.Layout(opts.Factory)
		if err != nil {
			return err
		}
		dir = state.Baselines()
	}
	path := paths[len(paths)-1] // the newest log
	st := calls.New(nil)
	if _, _, err := sessionlog.Read(path, st.Add); err != nil {
		return err
	}
	st.Flush()
	// The last session in the file with a complete tools/list.
	var ss *calls.Session
	for _, s := range st.Sessions() {
		if _, complete := s.Tools(); complete {
			ss = s
		}
	}
	if ss == nil {
		return fault.Input(fmt.Errorf("%s: no session with a complete tools/list", path))
	}
	label, server, endpoint := ss.Identity()
	id := baseline.Identity{Label: label, Server: server, Endpoint: endpoint}
	if opts.Reset {
		if err := baseline.Remove(dir, id); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "removed baseline %s\n", baseline.Path(dir, id))
		// A baseline keyed by the label alone (converted from mcpsnoop's)
		// would judge the next session in its place: it goes too, as
		// mcpsnoop's --reset removed the label's baseline.
		if b, err := baseline.Read(dir, id); err == nil && b.Identity == (baseline.Identity{Label: label}) {
			if err := baseline.Remove(dir, b.Identity); err != nil {
				return err
			}
			fmt.Fprintf(opts.IO.ErrOut, "removed baseline %s\n", baseline.Path(dir, b.Identity))
		}
		return nil
	}
	defs, _ := ss.Tools()
	raws := make([]json.RawMessage, len(defs))
	for i, d := range defs {
		raws[i] = d.Raw
	}
	cur, err := baseline.FromTools(id, raws)
	if err != nil {
		return fault.Input(err)
	}
	cur.RecordedAt = opts.Now().UTC().Format(time.RFC3339)
	cur.SetSource(ss.ID, ss.Start)
	old, err := baseline.Read(dir, id)
	if err == nil && old.Predates(ss.ID, ss.Start) {
		if !opts.Accept {
			// Its tools are older than the baseline's: not drift, and
			// nothing to accept.
			fmt.Fprintf(opts.IO.ErrOut, "not compared: the session predates the baseline (%s)\n", old.PredatesNote(ss.ID, ss.Start))
			return nil
		}
		fmt.Fprintf(opts.IO.ErrOut, "note: %s; its older tools replace the newer ones\n", old.PredatesNote(ss.ID, ss.Start))
	}
	switch {
	case opts.Accept || errors.Is(err, baseline.ErrNotFound):
		if err := baseline.Write(dir, cur); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "recorded baseline of %s (%s): %s from session %s in %s\n",
			label, server, plural.Count(len(cur.Tools), "tool"), ss.ID, baseline.Path(dir, id))
		return nil
	case err != nil:
		return fault.Input(err)
	}
	drift := baseline.Compare(old, cur)
	for _, f := range drift {
		fmt.Fprintf(opts.IO.Out, "%s\t%s\t%s\t%s\n", f.Tier, f.RuleID, f.Subject, f.Message)
	}
	if len(drift) > 0 {
		return &cmdutil.VerdictError{Code: result.Drift, Reason: fmt.Sprintf("%d tool definition changes since the baseline (accept them with --accept)", len(drift))}
	}
	fmt.Fprintln(opts.IO.ErrOut, "no drift from the baseline")
	return nil
}
