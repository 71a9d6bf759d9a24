package mcpsnoopfiles

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/settings"
)

// The .mcpsnoop.toml samples (testdata/mcpsnoop/<case>, copied from
// reference/samples/mcpsnoop/config, where each is listed with what
// mcpsnoop made of it): the valid ones give the same settings, the
// invalid ones fail with one line naming the line and the reason.
func TestParseMcpsnoopSamples(t *testing.T) {
	tests := []struct {
		dir     string
		want    *settings.File // nil: an error
		wantErr string         // substring of the error
		notices []string
	}{
		{dir: "readme-example", want: &settings.File{Label: "filesystem", TraceFile: "trace.jsonl", NoTrace: ptr(false),
			Redact: settings.Redact{Secrets: ptr(true), Keys: []string{"token,authorization"}, Values: []string{"sk-[A-Za-z0-9]+"}, Paths: []string{"$.params.arguments.password"}}},
			notices: []string{
				`  label -> label = "filesystem"`,
				`  trace-file -> trace-file = "trace.jsonl"`,
				`  no-trace -> no-trace = false`,
				`  redact-secrets -> [redact] secrets = true`,
				`  redact-key -> [redact] keys = ["token", "authorization"]`,
				`  redact-value -> [redact] values = ["sk-[A-Za-z0-9]+"]`,
				`  redact-path -> [redact] paths = ["$.params.arguments.password"]`,
			}},
		{dir: "redact-project", want: &settings.File{Label: "echo-redacted",
			Redact: settings.Redact{Secrets: ptr(true), Keys: []string{"user"}, Values: []string{"sk-[A-Za-z0-9]+"}}},
			notices: []string{
				`  label -> label = "echo-redacted"`,
				`  redact-secrets -> [redact] secrets = true`,
				`  redact-key -> [redact] keys = ["user"]`,
				`  redact-value -> [redact] values = ["sk-[A-Za-z0-9]+"]`,
			}},
		{dir: "accumulate", want: &settings.File{
			Redact: settings.Redact{Keys: []string{"token", "api_key"}, Values: []string{"sk-[0-9]+"}, Paths: []string{"$.params.arguments.password", "$.result.token"}}},
			notices: []string{
				`  redact-key -> [redact] keys = ["token", "api_key"]`,
				`  redact-value -> [redact] values = ["sk-[0-9]+"]`,
				`  redact-path -> [redact] paths = ["$.params.arguments.password", "$.result.token"]`,
			}},
		{dir: "hostile-label", wantErr: `label: label "../../evil" contains a path separator`},
		{dir: "invalid-array", wantErr: `line 2: invalid value for "redact-key": array values are not supported`},
		{dir: "invalid-bool", wantErr: `line 2: invalid value for "no-trace": want true or false, got "maybe"`},
		{dir: "invalid-redact-path", wantErr: `redact path "$.[": empty member name`},
		{dir: "invalid-trailing-comment", wantErr: `line 2: invalid value for "label": unexpected content after quoted value: "# my server"`},
		{dir: "invalid-unknown-key", wantErr: `line 2: unknown config key "foo"`},
		{dir: "invalid-unquoted-comment", wantErr: `line 2: invalid value for "redact-key": "#" in an unquoted value`},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			path := filepath.Join("testdata", tt.dir, SettingsFileName)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseSettings(path, data)
			if tt.want == nil {
				if err == nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tt.wantErr) ||
					!strings.HasPrefix(err.Error(), "config "+path+": ") || strings.Contains(err.Error(), "\n") {
					t.Errorf("ParseSettings() error = %v, want one line with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Path = path
			tt.want.Notices = append([]string{"read mcpsnoop's settings file " + path + "; in .mcpward.toml each key is:"}, tt.notices...)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("ParseSettings() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// McpwardTOML writes the .mcpward.toml that 'mcpward migrate' leaves in
// place of a .mcpsnoop.toml: read back by mcpward's own parser, it gives
// the same settings (redact-key's comma lists split, as both tools did).
func TestMcpwardTOMLRoundTrip(t *testing.T) {
	for _, dir := range []string{"readme-example", "redact-project", "accumulate"} {
		t.Run(dir, func(t *testing.T) {
			path := filepath.Join("testdata", dir, SettingsFileName)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			snoop, err := ParseSettings(path, data)
			if err != nil {
				t.Fatal(err)
			}
			out := McpwardTOML(snoop)
			got, err := settings.Parse(".mcpward.toml", out)
			if err != nil {
				t.Fatalf("Parse(McpwardTOML()) = %v\n%s", err, out)
			}
			var keys []string
			for _, k := range snoop.Redact.Keys {
				keys = append(keys, strings.Split(k, ",")...)
			}
			want := *snoop
			want.Redact.Keys = keys
			want.Path, want.Notices = got.Path, got.Notices
			if d := cmp.Diff(&want, got); d != "" {
				t.Errorf("round trip mismatch (-want +got):\n%s\n%s", d, out)
			}
		})
	}
}

// .mcpsnoop.toml is read from the working directory after .mcpward.toml
// and before the user's config file; its relative trace-file is the
// directory's, as for mcpsnoop (which read it from the cwd).
func TestFindMcpsnoop(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "proj")
	home := filepath.Join(root, "home")
	for _, d := range []string{cwd, filepath.Join(home, ".config", "mcpward")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	lookup := func(k string) (string, bool) {
		v, ok := map[string]string{"HOME": home, settings.TrustEnv: cwd}[k]
		return v, ok
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "mcpward", "config.toml"), []byte("label = \"user\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	snoop := filepath.Join(cwd, SettingsFileName)
	if err := os.WriteFile(snoop, []byte("# project\nlabel = \"snoop\"\ntrace-file = trace.jsonl\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := settings.Load("", cwd, lookup, Settings)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != snoop || f.Label != "snoop" || f.TraceFile != filepath.Join(cwd, "trace.jsonl") || len(f.Notices) != 3 {
		t.Errorf("Load() = %+v, want the .mcpsnoop.toml settings with notices", f)
	}
	// The same file named by --config is read the same way.
	if f, err := settings.Load(snoop, "", nil, Settings); err != nil || f.Label != "snoop" {
		t.Errorf("Load(--config .mcpsnoop.toml) = %+v, %v", f, err)
	}
	// .mcpward.toml in the same directory wins, and has no notices.
	if err := os.WriteFile(filepath.Join(cwd, settings.FileName), []byte("label = \"ward\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := settings.Load("", cwd, lookup, Settings); err != nil || f.Label != "ward" || f.Notices != nil {
		t.Errorf("Load() with both = %+v, %v; want .mcpward.toml", f, err)
	}
}

// A label mcpsnoop took but mcpward's file names cannot hold is made safe,
// and the notice says so; what mcpsnoop refused is refused.
func TestMcpsnoopLabel(t *testing.T) {
	f, err := ParseSettings("x", []byte("label = \"127.0.0.1:8080 (prod)\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Label != "127.0.0.1_8080__prod_" || len(f.Notices) != 3 || !strings.Contains(f.Notices[1], `label "127.0.0.1:8080 (prod)" becomes "127.0.0.1_8080__prod_"`) {
		t.Errorf("Label %q, notices %q", f.Label, f.Notices)
	}
	for _, l := range []string{"-x", "a\\b", "a\x01"} {
		if _, err := ParseSettings("x", []byte("label = \""+l+"\"\n")); err == nil {
			t.Errorf("label %q accepted", l)
		}
	}
}

func FuzzParseMcpsnoop(f *testing.F) {
	for _, s := range []string{
		"label = \"x\"\n", "redact-key = [a]", "no-trace = maybe", "label = \"a\" # c", "redact-path = \"$.[\"",
		"redact-key = a,b\nredact-key = c\n", "=", "label", "# only\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseSettings("f.toml", data)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("error not marked input: %v", err)
			}
			return
		}
		_ = got.Flags()
	})
}
func ptr[T any](v T) *T { return &v }
