package reportcmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/iostreams"
)

// The GitHub Action drives `mcpward report` and installs the binaries the
// release configuration builds, so their contract is checked here with
// plain line matching (no YAML library).

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section returns the lines of a top-level YAML key's block.
func section(t *testing.T, doc, key string) string {
	t.Helper()
	var out []string
	in := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case line == key+":":
			in = true
		case in && line != "" && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "#"):
			return strings.Join(out, "\n")
		case in:
			out = append(out, line)
		}
	}
	if !in {
		t.Fatalf("no top-level %q", key)
	}
	return strings.Join(out, "\n")
}

func TestActionContract(t *testing.T) {
	action := readRepoFile(t, "action.yml")
	inputs := section(t, action, "inputs")
	for name, def := range map[string]string{
		"config":            "mcpward.json",
		"fail-on":           "risky",
		"target":            `""`,
		"version":           "latest",
		"working-directory": `"."`,
	} {
		re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + `:\n(?:    .*\n)*?    default: ` + regexp.QuoteMeta(def) + `$`)
		if !re.MatchString(inputs + "\n") {
			t.Errorf("action.yml: input %q with default %s not found", name, def)
		}
	}
	if outputs := section(t, action, "outputs"); !strings.Contains(outputs, "\n  exit-code:") && !strings.HasPrefix(outputs, "  exit-code:") {
		t.Error("action.yml: no exit-code output")
	}
	runs := section(t, action, "runs")
	for _, want := range []string{
		"using: composite",
		"--fail-on \"$INPUT_FAIL_ON\" --json",
		`mcpward report "$RESULT" --format github`,
		`mcpward report "$RESULT" --format md >> "$GITHUB_STEP_SUMMARY"`,
		`exit "$CODE"`,
		"checksums.txt",
		"sha256sum -c",
		// A proxy the check starts applies the checkout's .mcpward.toml
		// (issue 26 item 1: untrusted, it would be applied only in part).
		`MCPWARD_TRUST_CONFIG: "1"`,
	} {
		if !strings.Contains(runs, want) {
			t.Errorf("action.yml: runs lacks %q", want)
		}
	}
	// Inputs must reach scripts through env, never spliced into a run:
	// block, where a crafted value would run as shell code.
	inRun := false
	for _, line := range strings.Split(runs, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "run:") {
			inRun = true
		} else if strings.HasPrefix(trimmed, "- name:") || strings.HasPrefix(trimmed, "env:") {
			inRun = false
		}
		if inRun && strings.Contains(line, "${{") {
			t.Errorf("action.yml: expression inside a run script: %s", trimmed)
		}
	}
}

func TestReleaseConfig(t *testing.T) {
	cfg := readRepoFile(t, ".goreleaser.yaml")
	builds := section(t, cfg, "builds")
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if !regexp.MustCompile(`(?m)^      - ` + goos + `$`).MatchString(builds) {
			t.Errorf(".goreleaser.yaml: goos %s missing", goos)
		}
	}
	for _, arch := range []string{"amd64", "arm64"} {
		if !regexp.MustCompile(`(?m)^      - ` + arch + `$`).MatchString(builds) {
			t.Errorf(".goreleaser.yaml: goarch %s missing", arch)
		}
	}
	const ldflags = "-s -w -X github.com/mcpward/mcpward/internal/cli.version={{.Version}}"
	if !strings.Contains(builds, ldflags) {
		t.Errorf(".goreleaser.yaml: ldflags %q missing", ldflags)
	}
	// The -X target must exist, or the version would silently stay empty.
	if cli := readRepoFile(t, "internal/cli/cli.go"); !regexp.MustCompile(`(?m)^var version = `).MatchString(cli) {
		t.Error("internal/cli has no package-level var version for -ldflags -X")
	}
	if !strings.Contains(builds, "main: ./cmd/mcpward") {
		t.Error(".goreleaser.yaml: main is not ./cmd/mcpward")
	}
	// The archive and checksum names must be the ones action.yml downloads.
	if !strings.Contains(section(t, cfg, "archives"), `name_template: "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}"`) {
		t.Error(".goreleaser.yaml: archive name template differs from what action.yml downloads")
	}
	if !strings.Contains(section(t, cfg, "checksum"), "name_template: checksums.txt") {
		t.Error(".goreleaser.yaml: checksum file is not checksums.txt")
	}
	action := readRepoFile(t, "action.yml")
	if !strings.Contains(action, `archive="mcpward_${version#v}_${os}_${arch}.${ext}"`) {
		t.Error("action.yml: archive name differs from the release configuration")
	}

	wf := readRepoFile(t, ".github/workflows/release.yml")
	for _, want := range []string{`- "v*"`, "goreleaser/goreleaser-action", "release --clean", "contents: write"} {
		if !strings.Contains(wf, want) {
			t.Errorf("release.yml lacks %q", want)
		}
	}
}

// TestActionSummaryShowsCompat: the Action's job summary is `mcpward
// report RESULT --format md` of check's saved Result; when the Result
// carries compat's observations, the summary shows the transport
// assertions and the tools × profiles verdict grid, as the terminal
// report does (issue 16 item 5).
func TestActionSummaryShowsCompat(t *testing.T) {
	runs := section(t, readRepoFile(t, "action.yml"), "runs")
	if !strings.Contains(runs, `mcpward report "$RESULT" --format md >> "$GITHUB_STEP_SUMMARY"`) {
		t.Fatal("action.yml: the job summary is no longer report --format md of the saved result")
	}
	ios, _, stdout, _ := iostreams.Test()
	if err := reportRun(&ReportOptions{IO: ios, Path: filepath.Join("testdata", "check-compat.json"), Format: "md"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### Transport assertions\n\n| assertion | verdict | detail |\n|---|---|---|\n| `transport.get_not_405` | pass | GET -\\> 405 |\n",
		"Era: **modern-only** · profiles: `modern-full`, `modern-minimal`\n\n",
		"| tool | `modern-full` | `modern-minimal` |\n|---|---|---|\n| `summarize_note` | ok | **degraded-silent** |\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("job summary lacks\n%s\ngot:\n%s", want, stdout)
		}
	}
}
