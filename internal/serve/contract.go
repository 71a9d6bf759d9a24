package serve

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/report/md"
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/report/text"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

// maxListed bounds the files a listing reads.
const maxListed = 500

// maxResultBytes bounds a result file read for the results page.
const maxResultBytes = 16 << 20

// SnapshotRow is one snapshot of GET /api/snapshots.
type SnapshotRow struct {
	Name       string `json:"name"`
	Server     string `json:"server,omitempty"`
	RecordedAt string `json:"recordedAt,omitempty"`
	Status     string `json:"status,omitempty"`
	Digest     string `json:"surfaceDigest,omitempty"`
	SpecHash   string `json:"probeSpecHash,omitempty"`
	Tools      int    `json:"tools"`
	Resources  int    `json:"resources"`
	Prompts    int    `json:"prompts"`
	// Error says why the file could not be read.
	Error string `json:"error,omitempty"`
}

// snapshotNames lists the *.json files of the snapshot directory, sorted.
func (s *Server) snapshotNames() ([]string, error) {
	if s.opts.SnapshotDir == "" {
		return nil, nil
	}
	ents, err := os.ReadDir(s.opts.SnapshotDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list snapshots: %w", err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".json") && len(names) < maxListed {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// snapshotPath resolves a name given by the page: only a file the listing
// shows, never a path.
func (s *Server) snapshotPath(name string) (string, bool) {
	names, _ := s.snapshotNames()
	if !slices.Contains(names, name) {
		return "", false
	}
	return filepath.Join(s.opts.SnapshotDir, name), true
}

func serverOf(snap *snapshot.Snapshot) string {
	d := snap.Surface.Discover
	if d == nil {
		return ""
	}
	name, version := snapshot.Str(d.ServerInfo, "name"), snapshot.Str(d.ServerInfo, "version")
	if name != "" && version != "" {
		return name + "@" + version
	}
	return name + version
}

func snapshotRow(name string, snap *snapshot.Snapshot) SnapshotRow {
	tools := len(snap.Surface.Tools)
	if raw := snap.Surface.RawTools(); raw != nil {
		tools = len(raw)
	}
	return SnapshotRow{
		Name: name, Server: serverOf(snap), RecordedAt: snap.Observation.RecordedAt, Status: snap.Observation.Status,
		Digest: snap.SurfaceDigest, SpecHash: snap.ProbeSpecHash, Tools: tools,
		Resources: len(snap.Surface.Resources), Prompts: len(snap.Surface.Prompts),
	}
}

func (s *Server) snapshots(w http.ResponseWriter, r *http.Request) {
	names, err := s.snapshotNames()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "list_snapshots", err.Error())
		return
	}
	rows := []SnapshotRow{}
	for _, n := range names {
		snap, err := contract.ReadSnapshot(filepath.Join(s.opts.SnapshotDir, n), true)
		if err != nil {
			rows = append(rows, SnapshotRow{Name: n, Error: err.Error()})
			continue
		}
		rows = append(rows, snapshotRow(n, snap))
	}
	writeJSON(w, http.StatusOK, map[string]any{"dir": s.opts.SnapshotDir, "snapshots": rows})
}

// Entity is one tool, resource, template or prompt of a snapshot, as the
// page lists it.
type Entity struct {
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	Labels      []string `json:"labels,omitempty"`
}

func entities(objs []snapshot.Object, key string) []Entity {
	out := []Entity{}
	for _, o := range objs {
		e := Entity{Name: snapshot.Str(o, key), Title: snapshot.Str(o, "title"), Description: snapshot.Str(o, "description")}
		if a, ok := o["annotations"].(map[string]any); ok {
			for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
				if v, ok := a[k].(bool); ok && v {
					e.Labels = append(e.Labels, strings.TrimSuffix(k, "Hint"))
				}
			}
		}
		out = append(out, e)
	}
	return out
}

func (s *Server) snapshotDetail(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	path, ok := s.snapshotPath(name)
	if !ok {
		writeError(w, http.StatusNotFound, "no_snapshot", fmt.Sprintf("no snapshot %q in the snapshot directory", name))
		return
	}
	snap, err := contract.ReadSnapshot(path, true)
	if err == nil {
		err = snap.Surface.DecodeTools()
	}
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "bad_snapshot", err.Error())
		return
	}
	var problems []string
	problems = append(problems, verdict.Problems(snap, nil)...)
	writeJSON(w, http.StatusOK, map[string]any{
		"snapshot":          snapshotRow(name, snap),
		"era":               snap.Observation.Era,
		"protocolVersion":   snap.Observation.ProtocolVersion,
		"problems":          problems,
		"tools":             entities(snap.Surface.Tools, "name"),
		"resources":         entities(snap.Surface.Resources, "uri"),
		"resourceTemplates": entities(snap.Surface.ResourceTemplates, "uriTemplate"),
		"prompts":           entities(snap.Surface.Prompts, "name"),
	})
}

// diff answers GET /api/diff?old=NAME&new=NAME: the Result of `mcpward
// diff OLD NEW` (default gate) and its text report, word for word.
func (s *Server) diff(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	oldName, newName := q.Get("old"), q.Get("new")
	oldPath, ok1 := s.snapshotPath(oldName)
	newPath, ok2 := s.snapshotPath(newName)
	if !ok1 || !ok2 {
		writeError(w, http.StatusNotFound, "no_snapshot", "old and new must name snapshots of the snapshot directory")
		return
	}
	old, err := contract.ReadSnapshot(oldPath, true)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "bad_snapshot", err.Error())
		return
	}
	cur, err := contract.ReadSnapshot(newPath, true)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "bad_snapshot", err.Error())
		return
	}
	if err := snapshot.Comparable(old, cur); err != nil {
		writeError(w, http.StatusUnprocessableEntity, "incomparable", err.Error())
		return
	}
	gate, _ := verdict.ParseGate("risky", nil, nil)
	problems := append(verdict.SideProblems("old", old), verdict.SideProblems("new", cur)...)
	res := verdict.Compare(&verdict.Comparison{
		Command: "diff", Version: s.opts.Version, Old: old, New: cur,
		OldPath: oldPath, NewPath: newPath, FindingFile: newPath, Gate: gate, Problems: problems,
	})
	writeResult(w, res)
}

func writeResult(w http.ResponseWriter, res *result.Result) {
	var txt, mdown bytes.Buffer
	if err := text.Write(&txt, res); err != nil {
		writeError(w, http.StatusInternalServerError, "render", err.Error())
		return
	}
	if err := md.Write(&mdown, res); err != nil {
		writeError(w, http.StatusInternalServerError, "render", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": res, "text": txt.String(), "markdown": mdown.String(),
		"verdict": render.VerdictOf(res).String(), "summary": render.SummaryLine(res), "exitMeaning": exitMeaning(res.ExitCode)})
}

// exitMeaning says what an exit code means (PRODUCT.md's table), for the
// pages that show a Result's.
func exitMeaning(code int) string {
	switch code {
	case result.Clean:
		return "nothing at or above the gate: CI passes"
	case result.Drift:
		return "drift or findings at or above the gate: a difference the consumer decides on"
	case result.Incomplete:
		return "evidence incomplete: the server could not be started, reached or fully enumerated (timeout, auth required)"
	case result.Violation:
		return "the server violates the protocol (a MUST-level rule): the server's owner must fix it"
	case result.Usage:
		return "usage, config, or an unreadable, incomparable or newer-format input file"
	case result.Internal:
		return "internal error (a bug in mcpward)"
	}
	return "not an exit code of mcpward"
}

// ResultRow is one saved Result of GET /api/results.
type ResultRow struct {
	Name     string `json:"name"`
	Dir      string `json:"dir"`
	Command  string `json:"command"`
	Target   string `json:"target,omitempty"`
	Server   string `json:"server,omitempty"`
	ExitCode int    `json:"exitCode"`
	Grid     bool   `json:"grid"`
}

// resultFiles finds the saved Results in the result directories: every
// *.json file ReadResult accepts. The key is "<dir index>-<name>".
func (s *Server) resultFiles() map[string]string {
	out := map[string]string{}
	for i, dir := range s.opts.ResultDirs {
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		n := 0
		for _, e := range ents {
			if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") || strings.HasSuffix(e.Name(), ".snapshot.json") {
				continue
			}
			if n++; n > maxListed {
				break
			}
			out[fmt.Sprintf("%d-%s", i, e.Name())] = filepath.Join(dir, e.Name())
		}
	}
	return out
}

func readResultFile(path string) (*result.Result, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxResultBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, maxResultBytes>>20)
	}
	// A Result names its tool in its first members: other JSON files of
	// the directory (a 12 MB bench fixture) are not read to find out.
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	f.Close()
	if head = head[:n]; !bytes.Contains(head, []byte(`"tool"`)) || !bytes.Contains(head, []byte(`"mcpward"`)) {
		return nil, report.ErrNotResult
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return report.ReadResult(b)
}

func (s *Server) results(w http.ResponseWriter, r *http.Request) {
	rows := []ResultRow{}
	files := s.resultFiles()
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		res, err := readResultFile(files[k])
		if err != nil {
			continue // not a Result: the directory holds other JSON too
		}
		row := ResultRow{Name: k, Dir: filepath.Dir(files[k]), Command: res.Command, ExitCode: res.ExitCode}
		if res.Target != nil {
			row.Target = cmp.Or(res.Target.Name, res.Target.Endpoint)
		}
		if res.Compat != nil {
			row.Server = res.Compat.Server
			row.Grid = len(res.Compat.Verdicts) > 0
		}
		rows = append(rows, row)
	}
	writeJSON(w, http.StatusOK, map[string]any{"dirs": s.opts.ResultDirs, "results": rows})
}

// resultDetail answers a saved Result and its text report (what `mcpward
// report FILE` prints), which for compat ends with the verdict grid.
func (s *Server) resultDetail(w http.ResponseWriter, r *http.Request) {
	path, ok := s.resultFiles()[r.PathValue("name")]
	if !ok {
		writeError(w, http.StatusNotFound, "no_result", fmt.Sprintf("no result %q", r.PathValue("name")))
		return
	}
	res, err := readResultFile(path)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "bad_result", err.Error())
		return
	}
	writeResult(w, res)
}
