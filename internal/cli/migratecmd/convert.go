package migratecmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/migrate"
	"github.com/mcpward/mcpward/internal/migrate/foreign"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoopfiles"
	"github.com/mcpward/mcpward/internal/migrate/snapgauge"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/settings"
	"github.com/mcpward/mcpward/internal/wrap"
)

// A converter turns one found file into an Item, writing the converted
// file only when write is set.
type converter struct {
	write     bool
	dir       string // the directory searched: snapshots go to its .mcpward/
	lookupEnv func(string) (string, bool)
	mcpward   string // the binary a wrapped client config is pointed at
	// transient says why mcpward is no binary for a client to start
	// (wrap.TransientBinary): such a config is not written.
	transient string
}

func (c converter) convert(f foundFile) Item {
	it := Item{Kind: f.kind}
	switch f.kind {
	case migrate.SnapgaugeSnapshot, migrate.SurfaceprintSnapshot, migrate.SurfaceprintLegacy:
		c.snapshot(f.path, &it)
	case migrate.SnapgaugeConfig:
		c.snapgaugeConfig(f.path, &it)
	case migrate.McpsnoopConfig:
		c.mcpsnoopConfig(f.path, &it)
	case migrate.McpsnoopWrapped:
		c.mcpsnoopWrapped(f, &it)
	case migrate.McpsnoopBaseline:
		c.mcpsnoopBaseline(f.path, &it)
	case migrate.SnapgaugeResult:
		it.Result = "read as is: mcpward report " + filepath.Base(f.path)
	case migrate.SnapgaugeBoard:
		it.Result = "not converted: 'mcpward board' publishes its own board files"
	case migrate.McpsnoopLog:
		it.Result = "read as is by mcpward sessions and mcpward ui"
	default:
		it.Result = "read as is"
	}
	return it
}

// snapshot converts a foreign snapshot into <dir>/.mcpward/<stem>.snapshot.json.
func (c converter) snapshot(path string, it *Item) {
	s, err := contract.ReadSnapshot(path, false)
	if err != nil {
		// The FILE column names the file already.
		it.fail(errors.New(strings.TrimPrefix(err.Error(), "snapshot "+path+": ")))
		return
	}
	for _, n := range s.Observation.Notes {
		// import.source only says where the snapshot came from.
		if n.Kind == "import" && n.Rule != "import.source" {
			it.NotCarried = append(it.NotCarried, n.Snippet)
		}
	}
	// snapgauge's default snapshot directory becomes mcpward's beside it,
	// where the migrated config looks; any other snapshot goes to the
	// searched directory's .mcpward/.
	root := c.dir
	if parent := filepath.Dir(path); filepath.Base(parent) == snapgauge.SnapshotDir {
		root = filepath.Dir(parent)
	}
	dest := filepath.Join(root, config.DefaultSnapshotDir, snapshotStem(path)+".snapshot.json")
	c.place(it, dest, func() error { return contract.WriteSnapshot(dest, s) })
}

// snapgaugeConfig converts snapgauge.config.json into mcpward.json beside
// it. Its default snapshot directory (.snapgauge) becomes mcpward's
// (.mcpward), where the snapshots are converted to.
func (c converter) snapgaugeConfig(path string, it *Item) {
	data, err := os.ReadFile(path)
	if err != nil {
		it.fail(err)
		return
	}
	f, err := foreign.Config(data)
	if err != nil {
		it.fail(err)
		return
	}
	it.NotCarried = append(it.NotCarried, f.Warnings...)
	if f.SnapshotDir == snapgauge.SnapshotDir {
		f.SnapshotDir = ""
	} else {
		it.NotCarried = append(it.NotCarried, fmt.Sprintf("snapshotDir %q is kept: the snapshots in it are read as they are", f.SnapshotDir))
	}
	out, err := config.Marshal(f)
	if err != nil {
		it.fail(err)
		return
	}
	dest := filepath.Join(filepath.Dir(path), "mcpward.json")
	c.place(it, dest, func() error { return contract.WriteFileAtomic(dest, out, 0o644) })
}

// mcpsnoopConfig converts .mcpsnoop.toml into .mcpward.toml beside it.
func (c converter) mcpsnoopConfig(path string, it *Item) {
	data, err := os.ReadFile(path)
	if err != nil {
		it.fail(err)
		return
	}
	f, err := mcpsnoopfiles.ParseSettings(filepath.Base(path), data)
	if err != nil {
		it.fail(errors.New(strings.TrimPrefix(err.Error(), "config "+filepath.Base(path)+": ")))
		return
	}
	out := mcpsnoopfiles.McpwardTOML(f)
	dest := filepath.Join(filepath.Dir(path), settings.FileName)
	c.place(it, dest, func() error {
		if err := contract.WriteFileAtomic(dest, out, 0o644); err != nil {
			return err
		}
		// mcpward wrote it, at the user's word: the proxy applies it whole.
		if settings.TrustStorePath(c.lookupEnv) == "" {
			return nil // no user config directory to keep trust in
		}
		_, err := settings.Trust(dest, out, false, c.lookupEnv)
		return err
	})
}

// mcpsnoopWrapped makes every entry of a client config that runs through
// mcpsnoop run through mcpward instead (as 'mcpward wrap' does for one),
// keeping mcpsnoop's shim flags; the file is backed up first, as wrap
// backs it up.
func (c converter) mcpsnoopWrapped(found foundFile, it *Item) {
	data, err := os.ReadFile(found.path)
	if err != nil {
		it.fail(err)
		return
	}
	t := found.target
	if t.Containers == nil {
		t = wrap.Target{Containers: [][]string{{"mcpServers"}}}
	}
	_, moved, problems := c.rewrap(data, t)
	it.NotCarried = append(it.NotCarried, problems...)
	if len(moved) == 0 {
		it.Result = "not converted: no entry could run through mcpward"
		it.Failed = len(problems) > 0
		return
	}
	shown := "→ runs through mcpward: " + strings.Join(moved, ", ")
	it.Dest = found.path
	if !c.write {
		it.Result = shown
		return
	}
	if c.transient != "" {
		it.fail(fmt.Errorf("not pointing the client at %s: %s (install mcpward first: go install ./cmd/mcpward)", c.mcpward, c.transient))
		return
	}
	f, err := wrap.Open(found.path)
	if err != nil {
		it.fail(err)
		return
	}
	defer f.Close()
	// Under the lock, from the file as it is now.
	out, moved, _ := c.rewrap(f.Data, t)
	if err := f.CheckWritable(); err != nil {
		it.fail(err)
		return
	}
	if _, err := f.SaveBackup(); err != nil {
		it.fail(fmt.Errorf("back up: %w", err))
		return
	}
	if err := f.Commit(out); err != nil {
		it.fail(err)
		return
	}
	it.Result = "→ runs through mcpward: " + strings.Join(moved, ", ") + " (written; backup " + filepath.Base(f.BackupPath()) + ")"
}

// rewrap moves each mcpsnoop entry of doc to mcpward, labelled with its
// server name as 'mcpward wrap' labels it.
func (c converter) rewrap(doc []byte, t wrap.Target) (out []byte, moved, problems []string) {
	servers, err := wrap.Servers(doc, t)
	if err != nil {
		return doc, nil, []string{err.Error()}
	}
	for _, s := range servers {
		if !wrap.WrappedByMcpsnoop(doc, t, s) {
			continue
		}
		next, err := wrap.Wrap(doc, t, s, wrap.Spec{Mcpward: c.mcpward, Flags: []string{"--label", session.SanitizeLabel(s)}})
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		doc, moved = next, append(moved, s)
	}
	return doc, moved, problems
}

// mcpsnoopBaseline converts one of mcpsnoop's trust-on-first-use tool
// baselines into mcpward's baseline directory. It stays keyed by the label
// (all mcpsnoop knew) until 'sessions baseline --accept' records the whole
// identity.
func (c converter) mcpsnoopBaseline(path string, it *Item) {
	data, err := os.ReadFile(path)
	if err != nil {
		it.fail(err)
		return
	}
	b, notes, err := mcpsnoopfiles.Baseline(data)
	if err != nil {
		it.fail(err)
		return
	}
	it.NotCarried = append(it.NotCarried, notes...)
	state, err := session.StateDir(c.lookupEnv)
	if err != nil {
		it.fail(err)
		return
	}
	dir := session.Layout{Root: state}.Baselines()
	dest := baseline.Path(dir, b.Identity)
	c.place(it, dest, func() error { return baseline.Write(dir, b) })
}

// place records dest in it and, when writing, writes it with do unless a
// file is already there (an existing mcpward file is never overwritten).
func (c converter) place(it *Item, dest string, do func() error) {
	it.Dest = dest
	shown := displayPath(c.dir, dest)
	if _, err := os.Lstat(dest); err == nil {
		it.Result = "skipped: " + shown + " exists"
		it.Dest = ""
		return
	}
	if err := c.inside(dest); err != nil {
		it.fail(err)
		return
	}
	if !c.write {
		it.Result = "→ " + shown
		return
	}
	if err := do(); err != nil {
		it.fail(err)
		return
	}
	it.Result = "→ " + shown + " (written)"
}

// inside refuses a destination in the searched directory whose real
// place is outside it: a symlinked .mcpward (say, to ~/.ssh) in a cloned
// repository must not make --write put files where the link points.
// Destinations outside the directory (mcpward's state directory) are
// where they say.
func (c converter) inside(dest string) error {
	rel, err := filepath.Rel(c.dir, dest)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	root, err := filepath.EvalSymlinks(c.dir)
	if err != nil {
		return nil // the walk read it; nothing to compare with
	}
	// The deepest part of dest that exists, resolved.
	p := filepath.Dir(dest)
	for {
		if _, err := os.Lstat(p); err == nil {
			break
		}
		if parent := filepath.Dir(p); parent != p {
			p = parent
			continue
		}
		return nil
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return fmt.Errorf("%s: %w", displayPath(c.dir, p), fault.WithoutPath(err))
	}
	if r, err := filepath.Rel(root, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s leads out of %s (to %s): not written there", displayPath(c.dir, p), c.dir, real)
	}
	return nil
}

func (it *Item) fail(err error) {
	it.Failed = true
	it.Dest = ""
	it.Result = "failed: " + err.Error()
}

// snapshotStem is the target name a snapshot file stands for:
// ".snapgauge/notes.snapshot.json" → "notes".
func snapshotStem(path string) string {
	b := filepath.Base(path)
	for _, suf := range []string{".snapshot.json", ".json"} {
		if s, ok := strings.CutSuffix(b, suf); ok {
			return s
		}
	}
	return b
}
