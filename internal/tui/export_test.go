package tui

import (
	"os"
	"path/filepath"
	"testing"
)

type fakeExporter struct{ formats, paths []string }

func (f *fakeExporter) Export(id, format, path string) error {
	f.formats = append(f.formats, format)
	f.paths = append(f.paths, path)
	return os.WriteFile(path, []byte(format), 0o600)
}

// TestExportPicker: with an Exporter (the real UI), e asks for a format:
// a digit picks one of jsonl and every sessions export format, enter picks
// html (mcpsnoop's e), anything else cancels.
func TestExportPicker(t *testing.T) {
	dir := t.TempDir()
	exp := &fakeExporter{}
	hs := newHarness(t, 200, 30, Options{StateDir: dir, Exporter: exp})
	scripted(hs)
	hs.keys("enter") // into the session's stream
	hs.keys("e")
	hs.want("export as: 1 jsonl 2 json 3 html 4 text 5 har 6 otlp · enter html · esc cancels")
	hs.keys("5")
	hs.want("exported to")
	hs.keys("e", "enter")
	hs.keys("e", "1")
	hs.keys("e", "x")
	hs.want("export cancelled")
	if want := []string{"har", "html"}; len(exp.formats) != 2 || exp.formats[0] != want[0] || exp.formats[1] != want[1] {
		t.Errorf("exported formats %v, want %v", exp.formats, want)
	}
	if len(exp.paths) > 0 && exp.paths[0] != filepath.Join(dir, "exports", "clean-1-aaaa.har") {
		t.Errorf("har export path %s", exp.paths[0])
	}
	if _, err := os.Stat(filepath.Join(dir, "exports", "clean-1-aaaa.jsonl")); err != nil {
		t.Errorf("1 (jsonl) wrote no raw log: %v", err)
	}
	// In the sessions list too.
	hs.keys("esc", "e", "4")
	if len(exp.formats) != 3 || exp.formats[2] != "text" {
		t.Errorf("from the sessions list: formats %v, want text last", exp.formats)
	}
}
