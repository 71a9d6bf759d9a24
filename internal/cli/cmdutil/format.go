package cmdutil

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/report"
)

// FormatTSV is the format of a table printed tab-separated even on a
// terminal.
const FormatTSV = "tsv"

// AddFormatFlags gives cmd the one output flag family every rendering
// command shares (gh's cmdutil.AddJSONFlags):
//
//   - --format/-f FORMAT, one of the formats the registry
//     (report.FormatNames) lists for command, the first being the default;
//   - --json, the same as --format json, when json is one of them;
//   - --reporter and -T, hidden aliases of --format kept for scripts
//     written against snapgauge (--reporter) and mcpsnoop (-T).
//
// command is the command as typed after "mcpward" ("check", "sessions
// export"). Before RunE the flags are resolved into *format: two of them
// naming different formats, or a format not in the list, is a usage error
// (exit 4) with the nearest format suggested (report.UnknownFormat).
// --format is completed with the list.
func AddFormatFlags(cmd *cobra.Command, format *string, command string) {
	formats := report.FormatNames(command)
	if len(formats) == 0 {
		panic("AddFormatFlags: the format registry lists no format for " + command)
	}
	fl := cmd.Flags()
	list := strings.Join(formats, ", ")
	fl.StringVarP(format, "format", "f", formats[0], "output `format`: "+list)
	var alias string
	fl.StringVarP(&alias, "reporter", "T", "", "alias of --format")
	_ = fl.MarkHidden("reporter")
	var asJSON bool
	hasJSON := slices.Contains(formats, "json")
	if hasJSON {
		fl.BoolVar(&asJSON, "json", false, "same as --format json")
	}
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("reporter", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))

	resolve := func(c *cobra.Command) error {
		fl := c.Flags()
		if fl.Changed("reporter") {
			if fl.Changed("format") && !strings.EqualFold(*format, alias) {
				return FlagErrorf("--format %s and --reporter %s disagree (--reporter is an alias of --format: give one)", *format, alias)
			}
			*format = alias
		}
		*format = strings.ToLower(*format)
		if asJSON {
			if (fl.Changed("format") || fl.Changed("reporter")) && *format != "json" {
				return FlagErrorf("--json and --format %s disagree", *format)
			}
			*format = "json"
		}
		if !slices.Contains(formats, *format) {
			return FlagErrorWrap(report.UnknownFormat(*format, formats))
		}
		return nil
	}
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if err := resolve(c); err != nil {
			return err
		}
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
}

// NewTablePrinter returns the table printer for a command's stdout: aligned
// and fitted on a terminal, tab-separated when piped or when format is
// "tsv".
func NewTablePrinter(io *iostreams.IOStreams, format string) *iostreams.TablePrinter {
	return iostreams.NewTablePrinter(io.Out, io.IsStdoutTTY() && format != FormatTSV, io.TerminalWidth())
}

// AddJSONFlags is AddFormatFlags for a command whose result has a human
// view and JSON only (--format text|json, --json): it sets *asJSON.
func AddJSONFlags(cmd *cobra.Command, asJSON *bool, command string) {
	var format string
	AddFormatFlags(cmd, &format, command)
	resolve := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if err := resolve(c, args); err != nil {
			return err
		}
		*asJSON = format == "json"
		return nil
	}
}
