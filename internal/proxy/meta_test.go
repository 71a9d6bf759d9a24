package proxy

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// The HTTP start record names the target with its password redacted, the
// listen address, the version and the capture order; the exit record says
// code 0.
func TestHTTPMetaRecords(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	u, err := url.Parse("http://user:s3cret@127.0.0.1:9/mcp?x=1")
	if err != nil {
		t.Fatal(err)
	}
	start := HTTPStartRecord(now, u, "127.0.0.1:8080", "v1.2.3")
	if start.Dir != session.Meta || start.Transport != session.HTTP || start.Kind != session.KindStart || !start.Time.Equal(now) {
		t.Errorf("start record = %+v", start)
	}
	want := `{"target":"http://user:xxxxx@127.0.0.1:9/mcp?x=1","listen":"127.0.0.1:8080","mcpwardVersion":"v1.2.3","order":"wire"}`
	if got := string(start.Info); got != want {
		t.Errorf("start info = %s, want %s", got, want)
	}
	if strings.Contains(string(start.Info), "s3cret") {
		t.Error("the start record holds the password")
	}
	exit := HTTPExitRecord(now)
	if exit.Dir != session.Meta || exit.Transport != session.HTTP || exit.Kind != session.KindExit || string(exit.Info) != `{"code":0}` {
		t.Errorf("exit record = %+v (info %s)", exit, exit.Info)
	}
}
