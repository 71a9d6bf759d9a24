package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/report/github"
	"github.com/mcpward/mcpward/internal/report/junit"
	"github.com/mcpward/mcpward/internal/report/md"
	"github.com/mcpward/mcpward/internal/report/sarif"
	"github.com/mcpward/mcpward/internal/report/text"
	"github.com/mcpward/mcpward/internal/suggest"
)

// A Format is one output format a command can be asked for with --format.
// The same name can be several formats (a Result's json is not a session
// export's json): each Format is one name for one set of commands.
type Format struct {
	Name        string
	Description string
	// Commands are the commands that accept it, as typed after "mcpward"
	// ("check", "sessions export").
	Commands []string

	// write renders a Result (the formats of resultCommands only).
	write WriteFunc
}

// Command families: the commands that accept the same formats.
var (
	// resultCommands render a [result.Result] (the writers of Lookup).
	resultCommands = []string{"check", "diff", "compat", "report", "sessions check", "fuzz"}
	// sessionExportCommands write a session export document
	// (internal/sessionexport).
	sessionExportCommands = []string{"sessions export"}
	// tableCommands print a list as a table, its JSON, or TSV.
	tableCommands = []string{"fixture list", "sessions list", "rules", "migrate"}
	// viewCommands print a human view or its JSON.
	viewCommands = []string{"inspect", "version", "sessions diff", "sessions replay"}
)

// registry is every format of every command. A command's formats are its
// entries in this order, the first being its default.
var registry = []Format{
	{"text", "the human report check prints", resultCommands, text.Write},
	{"json", "the result itself, normalised", resultCommands, JSON},
	{"md", "GitHub job-summary markdown", resultCommands, md.Write},
	{"github", "GitHub Actions annotations (::error / ::warning / ::notice)", resultCommands, github.Write},
	{"sarif", "SARIF 2.1.0 for code scanning", resultCommands, sarif.Write},
	{"junit", "JUnit XML for CI test reports", resultCommands, junit.Write},

	{"json", "the document the others are built from", sessionExportCommands, nil},
	{"html", "one self-contained file: no external fetch, search and the filter language", sessionExportCommands, nil},
	{"text", "a transcript", sessionExportCommands, nil},
	{"har", "HAR 1.2, one entry per call; stdio calls as POST mcp+stdio://<label>/", sessionExportCommands, nil},
	{"otlp", "OTLP JSON, one span per call, W3C trace context from _meta", sessionExportCommands, nil},

	{"text", "the human view: aligned on a terminal, tab-separated when piped", append(slices.Clip(tableCommands), viewCommands...), nil},
	{"json", "the data as JSON", append(slices.Clip(tableCommands), viewCommands...), nil},
	{"tsv", "tab-separated, even on a terminal", tableCommands, nil},
}

// Formats returns every format of every command, in registry order.
func Formats() []Format {
	out := slices.Clone(registry)
	for i := range out {
		out[i].Commands = slices.Clone(out[i].Commands)
	}
	return out
}

// FormatsOf returns the formats command accepts, its default first; none
// for a command that renders nothing.
func FormatsOf(command string) []Format {
	var out []Format
	for _, f := range registry {
		if slices.Contains(f.Commands, command) {
			out = append(out, f)
		}
	}
	return out
}

// Lookup returns the writer of the named Result format (a format of
// check, diff, compat, report and sessions check).
func Lookup(name string) (WriteFunc, bool) {
	for _, f := range registry {
		if f.Name == name && f.write != nil {
			return f.write, true
		}
	}
	return nil, false
}

// FormatNames returns the names of the formats command accepts, its
// default first.
func FormatNames(command string) []string {
	var out []string
	for _, f := range FormatsOf(command) {
		out = append(out, f.Name)
	}
	return out
}

// UnknownFormat is the one error for a format a command does not have:
// `unknown --format "sarf" (did you mean sarif? formats: text, json, …)`,
// the suggestion only when a format is within two edits.
func UnknownFormat(name string, formats []string) error {
	list := strings.Join(formats, ", ")
	if s := suggest.Closest(name, formats, 2, 1); len(s) > 0 {
		return fmt.Errorf("unknown --format %q (did you mean %s? formats: %s)", name, s[0], list)
	}
	return fmt.Errorf("unknown --format %q (formats: %s)", name, list)
}
