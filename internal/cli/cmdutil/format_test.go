package cmdutil

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func runFormat(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var got string
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	AddFormatFlags(cmd, &got, "text", "json", "sarif")
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
		{[]string{"--format", "sarf"}, "", `unknown --format "sarf" (did you mean sarif? formats: text, json, sarif)`},
		{[]string{"--format", "xml"}, "", `unknown --format "xml" (formats: text, json, sarif)`},
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
	AddFormatFlags(cmd, &f, "text", "json")
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

func TestAddFormatFlagsWithoutJSON(t *testing.T) {
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	var f string
	AddFormatFlags(cmd, &f, "html", "text")
	if cmd.Flags().Lookup("json") != nil {
		t.Error("--json registered on a command with no json format")
	}
	if f != "html" {
		t.Errorf("default = %q, want the first format", f)
	}
}

// An earlier PreRunE still runs, after the formats are resolved.
func TestAddFormatFlagsKeepsPreRunE(t *testing.T) {
	var seen string
	var f string
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	cmd.PreRunE = func(*cobra.Command, []string) error { seen = f; return nil }
	AddFormatFlags(cmd, &f, "text", "json")
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
		AddJSONFlags(cmd, &asJSON)
		cmd.SetArgs(strings.Fields(args))
		if _, err := cmd.ExecuteC(); err != nil || asJSON != want {
			t.Errorf("%q: json %v, err %v; want %v", args, asJSON, err, want)
		}
	}
}
