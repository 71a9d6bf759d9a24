// Package migratecmd implements `mcpward migrate [DIR]`: find the files of
// snapgauge, mcp-surfaceprint and mcpsnoop in a repository (and, with
// --home, in the user's state and client config directories), show what
// becomes of each, and with --write convert them to mcpward's files,
// keeping the originals.
package migratecmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/migrate"
	"github.com/mcpward/mcpward/internal/wrap"
)

// MigrateOptions are the inputs of `mcpward migrate`.
type MigrateOptions struct {
	IO         *iostreams.IOStreams
	LookupEnv  func(string) (string, bool)
	Getwd      func() (string, error)
	Executable func() (string, error)

	Dir string
	// Binary is the mcpward a client config wrapped by mcpsnoop is
	// pointed at ("": this one, unless 'go run' built it).
	Binary string
	Home   bool
	Write  bool
	Format string
}

// NewCmdMigrate builds `mcpward migrate`.
func NewCmdMigrate(f *cmdutil.Factory, runF func(context.Context, *MigrateOptions) error) *cobra.Command {
	opts := &MigrateOptions{IO: f.IOStreams, LookupEnv: f.LookupEnv, Getwd: f.Getwd, Executable: f.Executable}
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "migrate [DIR]",
		Short: "Bring the files of snapgauge, mcp-surfaceprint and mcpsnoop over to mcpward",
		Long: `Find the files of the tools mcpward replaces under DIR (default: the current
directory) and show what becomes of each: snapshots become mcpward snapshots,
configs become mcpward.json or .mcpward.toml, client configs wrapped by mcpsnoop
are wrapped by mcpward instead. Files that mcpward reads as they are (mcpsnoop
session logs, snapgauge result JSON) are listed and left alone.

Nothing is written unless --write is given (--dry-run is the default); the
originals are always kept. With --home, the user's mcpsnoop state directory and
client configs are searched too.

Every mcpward command also reads these files directly: migrating is only
needed to stop depending on the old formats.

Exit codes: 0 done (or nothing found), 4 a file could not be read or
converted (the others are still converted).`,
		Example: `  mcpward migrate                  # what would be converted in this repository
  mcpward migrate --write          # convert, keeping the originals
  mcpward migrate --home --json    # also the mcpsnoop state and client configs`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dryRun && opts.Write {
				return cmdutil.FlagErrorf("--dry-run and --write disagree: give one")
			}
			if len(args) == 1 {
				opts.Dir = args[0]
			}
			if cmd.Flags().Changed("binary") && !filepath.IsAbs(opts.Binary) {
				return cmdutil.FlagErrorf("--binary must be an absolute path, got %q", opts.Binary)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return migrateRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Write, "write", false, "convert the files (the originals are kept)")
	fl.BoolVar(&dryRun, "dry-run", false, "only show what would be converted (the default)")
	fl.StringVar(&opts.Binary, "binary", "", "absolute `path` of the mcpward binary a client config wrapped by mcpsnoop is pointed at (default: this one, unless 'go run' built it)")
	fl.BoolVar(&opts.Home, "home", false, "also search the mcpsnoop state directory and the client configs of this user")
	cmdutil.AddFormatFlags(cmd, &opts.Format, "migrate")
	return cmd
}

// An Item is one file found, and what became (or would become) of it.
type Item struct {
	File string       `json:"file"`
	Kind migrate.Kind `json:"kind"`
	// Result says what became of it: "→ DEST", "read as is by …",
	// "skipped: …", "failed: …".
	Result string `json:"result"`
	// Dest is the file written (or that would be), if any.
	Dest string `json:"dest,omitempty"`
	// NotCarried names what could not be carried over.
	NotCarried []string `json:"notCarriedOver,omitempty"`
	Failed     bool     `json:"failed,omitempty"`
}

// A Report is what `migrate --json` prints.
type Report struct {
	Dir     string `json:"dir"`
	Written bool   `json:"written"`
	Items   []Item `json:"items"`
}

func migrateRun(ctx context.Context, opts *MigrateOptions) error {
	dir := opts.Dir
	if dir == "" {
		wd, err := opts.Getwd()
		if err != nil {
			return err
		}
		dir = wd
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fault.Input(fmt.Errorf("migrate %s: not a directory", dir))
	}
	found, err := findFiles(ctx, dir)
	if err != nil {
		return err
	}
	if opts.Home {
		for _, f := range homeFiles(opts.LookupEnv) {
			if !slices.ContainsFunc(found, func(g foundFile) bool { return g.path == f.path }) {
				found = append(found, f)
			}
		}
	}
	conv := converter{write: opts.Write, dir: dir, lookupEnv: opts.LookupEnv}
	if opts.Binary != "" {
		conv.mcpward = opts.Binary
	} else if slices.ContainsFunc(found, func(f foundFile) bool { return f.kind == migrate.McpsnoopWrapped }) {
		bin, err := opts.Executable()
		if err != nil {
			return fmt.Errorf("find the mcpward binary: %w", err)
		}
		if abs, err := filepath.Abs(bin); err == nil {
			bin = abs
		}
		conv.mcpward = bin
		conv.transient = wrap.TransientBinary(bin, wrap.Env{GOOS: runtime.GOOS, Home: home(opts.LookupEnv), LookupEnv: opts.LookupEnv})
	}
	rep := Report{Dir: dir, Written: opts.Write, Items: []Item{}}
	failed := 0
	for _, f := range found {
		if err := ctx.Err(); err != nil {
			return err
		}
		var it Item
		if f.unread != nil {
			it = Item{Result: "not read: " + f.unread.Error()}
		} else {
			it = conv.convert(f)
		}
		it.File = displayPath(dir, f.path)
		if it.Failed {
			failed++
		}
		rep.Items = append(rep.Items, it)
	}
	if err := render(opts, &rep); err != nil {
		return err
	}
	if failed > 0 {
		return fault.Input(fmt.Errorf("migrate: %d of %d files could not be converted", failed, len(rep.Items)))
	}
	return nil
}

func render(opts *MigrateOptions, rep *Report) error {
	if opts.Format == "json" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(opts.IO.Out, "%s\n", b)
		return err
	}
	if len(rep.Items) == 0 {
		fmt.Fprintf(opts.IO.ErrOut, "no files of snapgauge, mcp-surfaceprint or mcpsnoop under %s\n", rep.Dir)
		return nil
	}
	tp := cmdutil.NewTablePrinter(opts.IO, opts.Format)
	tp.CutFirst(2, 3)
	tp.WrapColumns(2, 3)
	header := []string{"FILE", "KIND", "RESULT", "NOT CARRIED OVER"}
	if tp.IsTTY() && !slices.ContainsFunc(rep.Items, func(it Item) bool { return len(it.NotCarried) > 0 }) {
		// Nothing left behind: no column for it to take room from RESULT.
		header = header[:3]
	}
	tp.AddHeader(header...)
	for _, it := range rep.Items {
		tp.AddRow([]string{it.File, string(it.Kind), it.Result, strings.Join(it.NotCarried, "; ")}[:len(header)]...)
	}
	if err := tp.Render(); err != nil {
		return err
	}
	if !rep.Written && opts.Format != "tsv" && slices.ContainsFunc(rep.Items, func(it Item) bool { return it.Dest != "" }) {
		fmt.Fprintln(opts.IO.ErrOut, "dry run: nothing was written; run 'mcpward migrate --write' to convert (the originals are kept)")
	}
	return nil
}

// displayPath shows p relative to dir when it is inside it.
func displayPath(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}

// A foundFile is a file and the foreign format it holds.
type foundFile struct {
	path string
	kind migrate.Kind
	// target is where a client config keeps its servers (from
	// wrap.Locate for the ones --home finds; mcpServers otherwise).
	target wrap.Target
	// unread says why a candidate file or a directory could not be read:
	// it is listed, not passed over in silence.
	unread error
}

// skipDirs are never searched: other tools' trees and mcpward's own.
// A test's fixtures (testdata) are no files of the repository's own: DIR
// names one of these to search it.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true, "testdata": true, ".venv": true,
	"venv": true, "__pycache__": true, ".mcpward": true, ".hg": true, ".svn": true}

// maxJSONBytes bounds a JSON document read whole to classify it.
const maxJSONBytes = 64 << 20

// findFiles walks dir and classifies every candidate file, in path order.
func findFiles(ctx context.Context, dir string) ([]foundFile, error) {
	var out []foundFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			// An unreadable corner of the tree may hold what the user
			// wants migrated: say so.
			out = append(out, foundFile{path: p, unread: fault.WithoutPath(err)})
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if k, err := classifyPath(p); err != nil {
			out = append(out, foundFile{path: p, unread: err})
		} else if k != "" {
			out = append(out, foundFile{path: p, kind: k})
		}
		return nil
	})
	if err != nil {
		return nil, fault.Input(fmt.Errorf("migrate %s: %w", dir, err))
	}
	return out, nil
}

// openFile opens a candidate file; tests make it fail (root reads any
// file whatever its mode).
var openFile = func(p string) (io.ReadCloser, error) { return os.Open(p) }

// classifyPath reads as much of the file at p as classifying it needs; a
// candidate it cannot read is an error.
func classifyPath(p string) (migrate.Kind, error) {
	name := filepath.Base(p)
	if name != ".mcpsnoop.toml" && !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".jsonl") {
		return "", nil
	}
	fh, err := openFile(p)
	if err != nil {
		return "", fault.WithoutPath(err)
	}
	defer fh.Close()
	limit := int64(maxJSONBytes)
	if strings.HasSuffix(name, ".jsonl") {
		limit = migrate.SniffHead
	}
	data, err := io.ReadAll(io.LimitReader(fh, limit))
	if err != nil {
		return "", fault.WithoutPath(err)
	}
	return migrate.ClassifyFile(filepath.ToSlash(p), data), nil
}

// homeFiles finds the foreign files of this user: mcpsnoop's session logs
// and tool baselines, and the client configs it may have wrapped.
func homeFiles(lookupEnv func(string) (string, bool)) []foundFile {
	get := func(k string) string { v, _ := lookupEnv(k); return v }
	var out []foundFile
	if state := mcpsnoopStateDir(get); state != "" {
		for _, sub := range []string{"sessions", "tool-baselines"} {
			entries, err := os.ReadDir(filepath.Join(state, sub))
			if err != nil {
				continue
			}
			for _, e := range entries {
				p := filepath.Join(state, sub, e.Name())
				if k, err := classifyPath(p); err != nil {
					out = append(out, foundFile{path: p, unread: err})
				} else if k != "" {
					out = append(out, foundFile{path: p, kind: k})
				}
			}
		}
	}
	env := wrap.Env{GOOS: runtime.GOOS, Home: home(lookupEnv), LookupEnv: lookupEnv}
	if env.Home == "" {
		return out
	}
	for _, client := range wrap.Clients {
		p, t, err := wrap.Locate(client, wrap.ScopeUser, "", env)
		if err != nil {
			continue
		}
		if k, _ := classifyPath(p); k == migrate.McpsnoopWrapped { // a client's missing config is the usual case
			out = append(out, foundFile{path: p, kind: k, target: t})
		}
	}
	return out
}

// home is the user's home directory: $HOME, else $USERPROFILE.
func home(lookupEnv func(string) (string, bool)) string {
	if h, _ := lookupEnv("HOME"); h != "" {
		return h
	}
	h, _ := lookupEnv("USERPROFILE")
	return h
}

// mcpsnoopStateDir is mcpsnoop's base directory: $MCPSNOOP_HOME, else
// $XDG_STATE_HOME/mcpsnoop, else ~/.local/state/mcpsnoop.
func mcpsnoopStateDir(get func(string) string) string {
	if d := get("MCPSNOOP_HOME"); d != "" {
		return d
	}
	if d := get("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "mcpsnoop")
	}
	if h := get("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "mcpsnoop")
	}
	return ""
}
