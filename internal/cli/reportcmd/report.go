// Package reportcmd implements `mcpward report`: re-render a saved Result
// (the --json output of check, diff or compat) in another format, with no
// second probe. It is a pure reformat: it exits 0 when it rendered, whatever
// exit code the Result records, because that code is data about the
// earlier run, not about this one.
package reportcmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/migrate/snapgauge"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/report/text"
	"github.com/mcpward/mcpward/internal/result"
)

// MaxResultSize bounds the Result file read, so that a wrong argument (a
// log, a disk image) is refused instead of filling memory.
const MaxResultSize = 256 << 20

// ReportOptions are the inputs of `mcpward report`.
type ReportOptions struct {
	IO *iostreams.IOStreams
	// Path is the Result file; "-" reads standard input.
	Path   string
	Format string
	// Output, when set, is written atomically instead of stdout.
	Output string
}

// NewCmdReport builds `mcpward report`.
func NewCmdReport(f *cmdutil.Factory, runF func(*ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{IO: f.IOStreams}
	formats := strings.Join(report.FormatNames("report"), ", ")
	var described strings.Builder
	for _, f := range report.FormatsOf("report") {
		fmt.Fprintf(&described, "  %-6s  %s\n", f.Name, f.Description)
	}
	cmd := &cobra.Command{
		Use:   "report <result.json> [--format FORMAT] [-o FILE]",
		Short: "Re-render a saved result (" + formats + ")",
		Long: `Read a result saved with 'mcpward check --json' (or diff, compat) and print
it in another format, without probing the server again.

Formats: ` + formats + `.
` + described.String() + `
A result saved by snapgauge (check, compat or diff --json) is read too.

The command exits 0 when it rendered the result: the exit code recorded in the
result belongs to the run that produced it. A file that is not a mcpward
result, or was written by a newer mcpward, exits 4.`,
		Example: `  mcpward check --json > result.json; mcpward report result.json --format md >> "$GITHUB_STEP_SUMMARY"
  mcpward report result.json --format sarif -o mcpward.sarif
  mcpward diff old.json new.json --json | mcpward report - --format junit`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cmdutil.FlagErrorf("want exactly one result file (or - for stdin), got %d arguments", len(args))
			}
			opts.Path = args[0]
			if runF != nil {
				return runF(opts)
			}
			return reportRun(opts)
		},
	}
	cmdutil.AddFormatFlags(cmd, &opts.Format, "report")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to `file` (atomically) instead of stdout")
	return cmd
}

func reportRun(opts *ReportOptions) error {
	r, err := readResult(opts)
	if err != nil {
		return err
	}
	write, _ := report.Lookup(opts.Format)
	if opts.Format == "text" {
		// To a terminal: colour, and compat's verdict grid fitted to its
		// width, as compat itself prints it. To a file: plain.
		to := &text.Options{NewTable: newTable}
		if opts.Output == "" {
			to.Color = opts.IO.ColorEnabled()
			to.TTY, to.Width = opts.IO.IsStdoutTTY(), opts.IO.TerminalWidth()
		}
		write = func(w io.Writer, r *result.Result) error { return text.WriteOptions(w, r, to) }
	}
	var buf bytes.Buffer
	if err := write(&buf, r); err != nil {
		return fmt.Errorf("render %s: %w", opts.Format, err)
	}
	if opts.Output != "" {
		return atomicfile.Write(opts.Output, buf.Bytes(), 0o644)
	}
	if _, err := opts.IO.Out.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// readResult reads and strictly decodes the Result. Every failure is an
// unusable input (exit 4).
func readResult(opts *ReportOptions) (*result.Result, error) {
	name := opts.Path
	var src io.Reader
	if opts.Path == "-" {
		name = "stdin"
		src = opts.IO.In
	} else {
		f, err := os.Open(opts.Path)
		if err != nil {
			return nil, fault.Input(fmt.Errorf("read result %s: %w", opts.Path, fault.WithoutPath(err)))
		}
		defer f.Close()
		src = f
	}
	data, err := io.ReadAll(io.LimitReader(src, MaxResultSize+1))
	if err != nil {
		return nil, fault.Input(fmt.Errorf("read result %s: %w", name, fault.WithoutPath(err)))
	}
	if len(data) > MaxResultSize {
		return nil, fault.Input(fmt.Errorf("read result %s: larger than %d MiB, not a mcpward result", name, MaxResultSize>>20))
	}
	if snapgauge.IsResult(data) {
		// A result snapgauge saved (check, compat or diff --json).
		r, err := snapgauge.Result(data)
		if err != nil {
			return nil, fault.Input(fmt.Errorf("read result %s: %w", name, err))
		}
		return r, nil
	}
	r, err := report.ReadResult(data)
	if err != nil {
		err = fmt.Errorf("read result %s: %w", name, err)
		if errors.Is(err, report.ErrNotResult) {
			err = fault.WithHint(err, "pass the output of 'mcpward check --json' (or diff, compat)")
		}
		return nil, err
	}
	return r, nil
}

// newTable lays out compat's verdict grid with the CLI's table printer.
func newTable(w io.Writer, tty bool, width int) text.Table {
	return iostreams.NewTablePrinter(w, tty, width)
}
