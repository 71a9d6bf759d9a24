package cmdutil

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/report"
)

func runFormat(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var got string
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	AddFormatFlags(cmd, &got, "report")
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	_, err := cmd.ExecuteC()
	return got, err
}

func TestAddFormatFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    string
		wantErr string
	}{
		{nil, "text", ""},
		{[]string{"--format", "sarif"}, "sarif", ""},
		{[]string{"-f", "json"}, "json", ""},
		{[]string{"--json"}, "json", ""},
		{[]string{"--format", "SARIF"}, "sarif", ""},
		// Hidden aliases: snapgauge's --reporter, mcpsnoop's -T.
		{[]string{"--reporter", "sarif"}, "sarif", ""},
		{[]string{"-T", "json"}, "json", ""},
		{[]string{"--reporter", "json", "--format", "json", "--json"}, "json", ""},
		{[]string{"--format", "json", "--reporter", "sarif"}, "", "--format json and --reporter sarif disagree (--reporter is an alias of --format: give one)"},
		{[]string{"--json", "-f", "sarif"}, "", "--json and --format sarif disagree"},
		{[]string{"--json", "-T", "text"}, "", "--json and --format text disagree"},
		{[]string{"--format", "sarf"}, "", `unknown --format "sarf" (did you mean sarif? formats: text, json, md, github, sarif, junit)`},
		{[]string{"--format", "yaml"}, "", `unknown --format "yaml" (formats: text, json, md, github, sarif, junit)`},
	} {
		got, err := runFormat(t, tc.args...)
		if tc.wantErr != "" {
			var fe *FlagError
			if err == nil || err.Error() != tc.wantErr || !errors.As(err, &fe) {
				t.Errorf("%v: err = %v, want usage error %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%v: format %q, err %v; want %q", tc.args, got, err, tc.want)
		}
	}
}

func TestAddFormatFlagsHidesAliases(t *testing.T) {
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	var f string
	AddFormatFlags(cmd, &f, "inspect")
	usage := cmd.Flags().FlagUsages()
	if strings.Contains(usage, "reporter") || strings.Contains(usage, "-T") {
		t.Errorf("aliases shown in help:\n%s", usage)
	}
	for _, want := range []string{"-f, --format format", "--json"} {
		if !strings.Contains(usage, want) {
			t.Errorf("help lacks %q:\n%s", want, usage)
		}
	}
}

// A command's formats and default are the registry's: sessions export
// defaults to json and has no md.
func TestAddFormatFlagsFromRegistry(t *testing.T) {
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	var f string
	AddFormatFlags(cmd, &f, "sessions export")
	if f != "json" {
		t.Errorf("default = %q, want json (the registry's first format of sessions export)", f)
	}
	cmd.SetArgs([]string{"-f", "md"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	if _, err := cmd.ExecuteC(); err == nil || err.Error() != `unknown --format "md" (formats: json, html, text, har, otlp)` {
		t.Errorf("md on sessions export: %v", err)
	}
}

// Every command the registry names gets its flags; a command it does not
// name is a programming error caught at build time of the tree.
func TestAddFormatFlagsEveryRegistryCommand(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range report.Formats() {
		for _, c := range f.Commands {
			if seen[c] {
				continue
			}
			seen[c] = true
			var got string
			AddFormatFlags(&cobra.Command{Use: "x"}, &got, c)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for a command the registry does not list")
		}
	}()
	var got string
	AddFormatFlags(&cobra.Command{Use: "x"}, &got, "no such command")
}

// An earlier PreRunE still runs, after the formats are resolved.
func TestAddFormatFlagsKeepsPreRunE(t *testing.T) {
	var seen string
	var f string
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	cmd.PreRunE = func(*cobra.Command, []string) error { seen = f; return nil }
	AddFormatFlags(cmd, &f, "inspect")
	cmd.SetArgs([]string{"--json"})
	if _, err := cmd.ExecuteC(); err != nil {
		t.Fatal(err)
	}
	if seen != "json" {
		t.Errorf("earlier PreRunE saw format %q, want json", seen)
	}
}

func TestAddJSONFlags(t *testing.T) {
	for args, want := range map[string]bool{"": false, "--json": true, "--format json": true, "-f text": false, "-T json": true} {
		var asJSON bool
		cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
		AddJSONFlags(cmd, &asJSON, "version")
		cmd.SetArgs(strings.Fields(args))
		if _, err := cmd.ExecuteC(); err != nil || asJSON != want {
			t.Errorf("%q: json %v, err %v; want %v", args, asJSON, err, want)
		}
	}
}
