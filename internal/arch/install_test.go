package arch

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func readRoot(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestInstallDocumented pins issue 13 item 16: the README says how to
// install (go install with the module path from go.mod, a Homebrew tap,
// release archives checked against checksums.txt), and the release
// configuration produces what it promises.
func TestInstallDocumented(t *testing.T) {
	mod := regexp.MustCompile(`(?m)^module (\S+)$`).FindStringSubmatch(readRoot(t, "go.mod"))
	if mod == nil {
		t.Fatal("go.mod has no module line")
	}
	readme := readRoot(t, "README.md")
	i := strings.Index(readme, "\n## Install\n")
	if i < 0 {
		t.Fatal("README.md has no '## Install' section")
	}
	install := readme[i+1:]
	if j := strings.Index(install[3:], "\n## "); j >= 0 {
		install = install[:j+3]
	}
	for _, want := range []string{
		"go install " + mod[1] + "/cmd/mcpward@latest",
		"brew install mcpward/tap/mcpward",
		"checksums.txt",
		"mcpward_<version>_<os>_<arch>.tar.gz",
	} {
		if !strings.Contains(install, want) {
			t.Errorf("README.md Install section lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join("..", "..", "cmd", "mcpward", "main.go")); err != nil {
		t.Errorf("the go install path names no main package: %v", err)
	}

	cfg := readRoot(t, ".goreleaser.yaml")
	brews := topSection(cfg, "brews")
	if brews == "" {
		t.Fatal(".goreleaser.yaml has no brews: section (Homebrew formula)")
	}
	for _, want := range []string{
		"- name: mcpward",
		"owner: mcpward",
		"name: homebrew-tap", // brew install mcpward/tap/mcpward
		`bin.install "mcpward"`,
		"test: |",
		"{{ .Env.HOMEBREW_TAP_GITHUB_TOKEN }}",
	} {
		if !strings.Contains(brews, want) {
			t.Errorf(".goreleaser.yaml brews: lacks %q", want)
		}
	}
	if !strings.Contains(topSection(cfg, "checksum"), "algorithm: sha256") {
		t.Error(".goreleaser.yaml: checksums are not sha256")
	}
	if wf := readRoot(t, ".github/workflows/release.yml"); !strings.Contains(wf, "HOMEBREW_TAP_GITHUB_TOKEN: ${{ secrets.HOMEBREW_TAP_GITHUB_TOKEN }}") {
		t.Error("release workflow does not pass HOMEBREW_TAP_GITHUB_TOKEN to goreleaser")
	}
}

// topSection returns a top-level YAML key's block, up to the next
// top-level key ("" when absent).
func topSection(yaml, key string) string {
	lines := strings.Split(yaml, "\n")
	var out []string
	in := false
	for _, l := range lines {
		top := l != "" && l[0] != ' ' && l[0] != '#' && l[0] != '-'
		switch {
		case top && strings.HasPrefix(l, key+":"):
			in = true
		case top:
			in = false
		}
		if in {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
