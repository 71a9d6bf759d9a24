package recording

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
)

func now() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }

// A recording with a File writes every record there, redacted by the
// Redact sink before it is encoded; Path names the file once open.
func TestRecordingWritesRedactedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	red, err := redact.New(redact.Config{Keys: []string{"token"}})
	if err != nil {
		t.Fatal(err)
	}
	r := Open(&Options{Session: "S1", Label: "weather", Now: now, Warn: io.Discard, Redact: red,
		File: &File{Open: func() (*os.File, string, error) {
			f, err := os.Create(path)
			return f, path, err
		}}})
	r.Record(session.Record{Dir: session.ClientToServer, Frame: []byte(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"token":"s3cret"}}`), HasFrame: true})
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if r.Path() != path || r.Wait() != nil {
		t.Errorf("Path = %q, Wait = %v", r.Path(), r.Wait())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"session":"S1"`)) || bytes.Contains(b, []byte("s3cret")) {
		t.Errorf("log = %s; want the record of S1 without the token", b)
	}
}

// A file that cannot be opened is the recording's error; the client's
// bytes never reach the server (the gated reader sees end of file).
func TestRecordingFileFails(t *testing.T) {
	boom := errors.New("read-only")
	r := Open(&Options{Session: "S1", Now: now, Warn: io.Discard,
		File: &File{Open: func() (*os.File, string, error) { return nil, "", boom }}})
	got, err := io.ReadAll(r.Gate(strings.NewReader("client bytes")))
	if err != nil || len(got) != 0 {
		t.Errorf("gated read = %q, %v; want nothing", got, err)
	}
	_ = r.Close()
	if !errors.Is(r.Wait(), boom) || r.Path() != "" {
		t.Errorf("Wait = %v, Path = %q", r.Wait(), r.Path())
	}
}

// Without a File (--no-trace, for the exporter alone) nothing waits and
// the reader is passed through.
func TestRecordingWithoutFile(t *testing.T) {
	r := Open(&Options{Session: "S1", Now: now, Warn: io.Discard})
	in := strings.NewReader("x")
	if r.HasFile() || r.Gate(in) != io.Reader(in) || r.Wait() != nil {
		t.Error("a recording without a file gated or waited")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	var none *Recording
	if none.HasFile() || none.Wait() != nil {
		t.Error("a nil recording has a file")
	}
}
