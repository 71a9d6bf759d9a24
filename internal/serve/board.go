package serve

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/board"
)

// maxBoardBytes bounds a board file.
const maxBoardBytes = 32 << 20

// boardFile finds the board to show: Options.Board itself, or the newest
// <date>.json of that directory.
func (s *Server) boardFile() (string, error) {
	p := s.opts.Board
	if p == "" {
		return "", nil
	}
	fi, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("board %s: %w", p, err)
	}
	if !fi.IsDir() {
		return p, nil
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return "", fmt.Errorf("board %s: %w", p, err)
	}
	var dates []string
	for _, e := range ents {
		name := strings.TrimSuffix(e.Name(), ".json")
		if _, err := time.Parse(time.DateOnly, name); err == nil && e.Type().IsRegular() && name != e.Name() {
			dates = append(dates, e.Name())
		}
	}
	if len(dates) == 0 {
		return "", fmt.Errorf("board %s: no <date>.json board in the directory: %w", p, fs.ErrNotExist)
	}
	slices.Sort(dates)
	return filepath.Join(p, dates[len(dates)-1]), nil
}

func (s *Server) readBoard() (*board.Board, error) {
	path, err := s.boardFile()
	if err != nil || path == "" {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("board %s: %w", path, err)
	}
	if fi.Size() > maxBoardBytes {
		return nil, fmt.Errorf("board %s: larger than %d MiB", path, maxBoardBytes>>20)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("board %s: %w", path, err)
	}
	bd, err := board.ReadBoard(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return bd, nil
}

// boardOrError reads the board, or answers why there is none (and
// returns nil).
func (s *Server) boardOrError(w http.ResponseWriter) *board.Board {
	bd, err := s.readBoard()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "board", err.Error())
		return nil
	}
	if bd == nil {
		writeError(w, http.StatusNotFound, "no_board", "no board: start mcpward serve with --board FILE|DIR")
	}
	return bd
}

// inline finds the inline <script> and <style> elements of a page.
var inline = regexp.MustCompile(`(?s)<(script|style)>(.*?)</(?:script|style)>`)

// boardCSP is the policy of the board page, which internal/board renders
// self-contained (inline style and script): the page's own inline
// elements are allowed by their hashes, nothing else. The board's
// script and style are constant (every value is in the markup), so their
// hashes are those of any rendering.
var boardCSP = sync.OnceValues(func() (string, error) {
	var buf bytes.Buffer
	if err := board.Render(&buf, &board.Board{Date: "2026-01-01", Rows: []board.Row{{Server: "x", Status: board.StatusOK}}}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		return "", err
	}
	hashes := map[string][]string{}
	for _, m := range inline.FindAllSubmatch(buf.Bytes(), -1) {
		sum := sha256.Sum256(m[2])
		hashes[string(m[1])] = append(hashes[string(m[1])], "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	if len(hashes["script"]) == 0 || len(hashes["style"]) == 0 {
		return "", errors.New("board page: no inline script or style to hash")
	}
	return "default-src 'none'; script-src " + strings.Join(hashes["script"], " ") + "; style-src " + strings.Join(hashes["style"], " ") +
		"; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'", nil
})

// nav is the app's navigation bar (app.js builds the same from
// /api/info), for the board page, which is not the app's.
func (s *Server) nav() []board.Link {
	var nav []board.Link
	if !s.opts.Public {
		nav = append(nav, board.Link{Text: "Sessions", Href: "/#/sessions"}, board.Link{Text: "Snapshots", Href: "/#/snapshots"},
			board.Link{Text: "Results", Href: "/#/results"})
	}
	if s.opts.Check != nil {
		nav = append(nav, board.Link{Text: "Check", Href: "/#/check"})
	}
	return append(nav, board.Link{Text: "Board", Href: "/board"})
}

// boardPage serves the board as internal/board renders it (the page
// `mcpward board render` writes), with the app's navigation on top.
func (s *Server) boardPage(w http.ResponseWriter, r *http.Request) {
	bd := s.boardOrError(w)
	if bd == nil {
		return
	}
	csp, err := boardCSP()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "board", err.Error())
		return
	}
	var buf bytes.Buffer
	if err := board.RenderNav(&buf, bd, s.opts.Now(), s.nav()); err != nil {
		writeError(w, http.StatusInternalServerError, "board", err.Error())
		return
	}
	w.Header().Set("Content-Security-Policy", csp)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

func (s *Server) boardJSON(w http.ResponseWriter, r *http.Request) {
	bd := s.boardOrError(w)
	if bd == nil {
		return
	}
	writeJSON(w, http.StatusOK, bd)
}
