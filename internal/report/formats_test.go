package report

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The formats each command accepts, default first: the --format contract
// the script tests pin (format_flags, sessions_list_table,
// sessions_export_shim).
func TestFormatNames(t *testing.T) {
	result := []string{"text", "json", "md", "github", "sarif", "junit"}
	for cmd, want := range map[string][]string{
		"check": result, "diff": result, "compat": result, "report": result, "sessions check": result,
		"sessions export": {"json", "html", "text", "har", "otlp"},
		"fixture list":    {"text", "json", "tsv"},
		"sessions list":   {"text", "json", "tsv"},
		"rules":           {"text", "json", "tsv"},
		"inspect":         {"text", "json"},
		"version":         {"text", "json"},
		"sessions diff":   {"text", "json"},
		"sessions replay": {"text", "json"},
		"proxy":           nil,
	} {
		if d := cmp.Diff(want, FormatNames(cmd)); d != "" {
			t.Errorf("FormatNames(%q) (-want +got):\n%s", cmd, d)
		}
	}
}

// A command has a name once, every format says what it is, and exactly the
// Result formats have a writer.
func TestRegistry(t *testing.T) {
	seen := map[[2]string]bool{}
	for _, f := range Formats() {
		if f.Description == "" || len(f.Commands) == 0 {
			t.Errorf("%s: no description or no command", f.Name)
		}
		for _, c := range f.Commands {
			k := [2]string{c, f.Name}
			if seen[k] {
				t.Errorf("command %q lists format %q twice", c, f.Name)
			}
			seen[k] = true
		}
	}
	for _, f := range registry {
		isResult := slices.Equal(f.Commands, resultCommands)
		if (f.write != nil) != isResult {
			t.Errorf("%s for %v: writer %v, want one only for the Result commands", f.Name, f.Commands, f.write != nil)
		}
	}
	if _, ok := Lookup("html"); ok {
		t.Error("Lookup(html) found a Result writer; html is a session export format")
	}
}

func TestUnknownFormat(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"sarf", `unknown --format "sarf" (did you mean sarif? formats: text, json, md, github, sarif, junit)`},
		{"yaml", `unknown --format "yaml" (formats: text, json, md, github, sarif, junit)`},
	} {
		if got := UnknownFormat(tc.name, FormatNames("check")).Error(); got != tc.want {
			t.Errorf("UnknownFormat(%q) = %s, want %s", tc.name, got, tc.want)
		}
	}
}
