// Package sessexportcmd implements `mcpward sessions export`: one session log
// (or one session of it) as JSON, a self-contained HTML report, a text
// transcript, HAR 1.2 or OTLP JSON, written atomically. The documents are
// internal/sessionexport's; this command parses the flags, resolves
// the log and owns the output file.
package sessexportcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessionargs"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/otlppush"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/sessionexport"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// ExportOptions are the inputs of `sessions export`.
type ExportOptions struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	Version string

	Log       string
	SessionID string
	Format    string
	Output    string
	Check     bool
	Redact    redact.Config
	// Endpoint, with -T otlp, is the OTLP/HTTP collector the export is
	// sent to (POST {Endpoint}/v1/traces) instead of stdout.
	Endpoint string
}

// NewCmdExport builds `mcpward sessions export`.
func NewCmdExport(f *cmdutil.Factory, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{IO: f.IOStreams, Factory: f, Version: f.Version}
	cmd := &cobra.Command{
		Use:   "export [LOG|ID] [-T json|html|text|har|otlp] [-o FILE]",
		Short: "Export a recorded session as JSON, HTML, text, HAR or OTLP",
		Long: `Export a session log: every call with its frames (as recorded, never
re-encoded), a per-tool summary (calls, errors, latency, definition and
result bytes, estimated tokens) and, with --check, the traffic findings.

LOG is a log file (mcpward's or mcpsnoop's), - for standard input, or a
session id (or id prefix, or label) in the state directory; without it the
newest log there is used. Every session in the
file is exported unless --session names one.

Formats: json (the document the others are built from), html (one
self-contained file: no external fetch, search and the filter language
tool: method: id: dir: kind: status:), text (a transcript), har (HAR 1.2,
one entry per call; stdio calls as POST mcp+stdio://<label>/), otlp (OTLP
JSON, one span per call, W3C trace context from _meta).

--redact-* hide secrets while reading; the log itself is never changed.
-o writes through a temporary file and a rename, and refuses to overwrite
the log being read.`,
		Example: `  mcpward sessions export -f html -o report.html
  mcpward sessions export run.jsonl -f har -o run.har --redact-secrets
  mcpward sessions export --session 01JD -f json --check | jq '.sessions[].summary'
  mcpward sessions export run.jsonl -T otlp --check --endpoint http://127.0.0.1:4318`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Log = args[0]
			}
			if _, err := redact.New(opts.Redact); err != nil {
				return cmdutil.FlagErrorWrap(err)
			}
			if opts.Endpoint != "" && opts.Format != "otlp" {
				return cmdutil.FlagErrorf("--endpoint needs -T otlp")
			}
			if u, err := url.Parse(opts.Endpoint); opts.Endpoint != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
				return cmdutil.FlagErrorf("--endpoint must be an http:// or https:// URL, got %q", opts.Endpoint)
			}
			if runF != nil {
				return runF(opts)
			}
			return exportRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	cmdutil.AddFormatFlags(cmd, &opts.Format, "sessions export")
	fl.StringVarP(&opts.Output, "output", "o", "-", "write to `file` (atomically; - is stdout)")
	fl.StringVar(&opts.SessionID, "session", "", "export only the session with this `id` (or id prefix)")
	fl.BoolVar(&opts.Check, "check", false, "run the traffic rules and include their findings")
	fl.StringVar(&opts.Endpoint, "endpoint", "", "with -T otlp, send the spans to this OTLP/HTTP collector `URL` (e.g. http://127.0.0.1:4318) instead of stdout")
	AddRedactFlags(cmd, &opts.Redact)
	cmdutil.AddStateDirFlag(cmd, f)
	cmd.ValidArgsFunction = sessionargs.CompleteSessions(f)
	_ = cmd.RegisterFlagCompletionFunc("session", sessionargs.CompleteSessions(f))
	return cmd
}

// AddRedactFlags registers --redact-secrets, --redact-key, --redact-value
// and --redact-path.
func AddRedactFlags(cmd *cobra.Command, cfg *redact.Config) {
	fl := cmd.Flags()
	fl.BoolVar(&cfg.Secrets, "redact-secrets", false, "hide credentials (built-in detectors and key names)")
	fl.StringArrayVar(&cfg.Keys, "redact-key", nil, "hide the values of object members with this `name` (repeatable, comma-separated)")
	fl.StringArrayVar(&cfg.Values, "redact-value", nil, "hide every match of this `regexp` in strings (repeatable)")
	fl.StringArrayVar(&cfg.Paths, "redact-path", nil, "hide the values at this `path` (params.arguments.password, $..token; repeatable)")
}

func exportRun(ctx context.Context, opts *ExportOptions) error {
	path, err := sessionargs.ResolveLog(opts.Factory, opts.Log, opts.SessionID)
	if err != nil {
		return err
	}
	red, err := redact.New(opts.Redact)
	if err != nil {
		return fault.Input(err)
	}
	if opts.Endpoint != "" {
		return pushRun(ctx, opts, path, red)
	}
	return writeOutput(opts.IO.Out, opts.Output, inputFile{path: path, stdin: opts.IO.In}, func(w io.Writer) error {
		if opts.Format == "text" {
			// A transcript quotes the server's frames and stderr: none
			// of its escape sequences reach the terminal (or a file
			// someone cats).
			w = termsafe.NewWriter(w)
		}
		return exportLog(ctx, w, path, opts, red, opts.IO.ErrOut)
	})
}

// pushRun sends the OTLP export to --endpoint (and writes it to -o FILE
// too, when one is named). A collector that cannot be reached or refuses
// the spans is exit 2: the export is incomplete.
func pushRun(ctx context.Context, opts *ExportOptions, path string, red *redact.Redactor) error {
	var buf bytes.Buffer
	if err := exportLog(ctx, &buf, path, opts, red, opts.IO.ErrOut); err != nil {
		return err
	}
	if opts.Output != "" && opts.Output != "-" {
		if err := writeOutput(opts.IO.Out, opts.Output, inputFile{path: path, stdin: opts.IO.In}, func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		}); err != nil {
			return err
		}
	}
	n, err := otlppush.PushTraces(ctx, &otlppush.Options{Endpoint: opts.Endpoint}, buf.Bytes())
	if err != nil {
		return fault.Incomplete(fmt.Errorf("export: %w", err))
	}
	fmt.Fprintf(opts.IO.ErrOut, "sent the spans of %s to %s (%s)\n", path, opts.Endpoint, plural.Count(n, "request"))
	return nil
}

// exportLog writes the sessions of the log at path to w in opts.Format;
// problems with log lines are warned about on warn and listed in the
// output.
func exportLog(ctx context.Context, w io.Writer, path string, opts *ExportOptions, red *redact.Redactor, warn io.Writer) error {
	x, err := sessionexport.New(w, &sessionexport.Options{Format: opts.Format, SessionID: opts.SessionID,
		Version: opts.Version, Check: opts.Check, Redactor: red, Log: path, Warn: warn})
	if err != nil {
		return err
	}
	problems, skipped, err := sessionargs.ReadLog(ctx, opts.IO.In, path, x.Add)
	if err != nil {
		return err
	}
	return x.Finish(problems, skipped)
}

// writeOutput runs write into stdout ("-" or "") or into path: through a
// temporary file in the same directory and a rename, so a reader never
// sees half a report and a failed export leaves the old file alone. It
// refuses to write over input (compared by file identity, so a symlink or
// a second hard link to the log is caught). Devices and pipes are written
// directly.
func writeOutput(stdout io.Writer, path string, input inputFile, write func(io.Writer) error) (err error) {
	if path == "" || path == "-" {
		if err := sameAsInput(stdout, input); err != nil {
			return err
		}
		return write(stdout)
	}
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	perm := fs.FileMode(0o600)
	if info, err := os.Stat(target); err == nil {
		if in, err := input.stat(); err == nil && os.SameFile(info, in) {
			return fault.Input(fmt.Errorf("export: output %s is the session log being read", path))
		}
		if !info.Mode().IsRegular() {
			fh, err := os.OpenFile(target, os.O_WRONLY, 0)
			if err != nil {
				return fault.Input(fmt.Errorf("export: %w", err))
			}
			defer fh.Close()
			return write(fh)
		}
		perm = info.Mode().Perm()
	}
	// An error of the file itself (no space, no permission) is the user's
	// to fix (exit 4); one from reading the log is returned as it is.
	var writeErr error
	err = atomicfile.WriteFunc(target, perm, func(w io.Writer) error {
		writeErr = write(w)
		return writeErr
	})
	if err != nil && writeErr == nil {
		return fault.Input(fmt.Errorf("export: %w", err))
	}
	return err
}

// inputFile is the log being read: a path, or standard input ("-").
type inputFile struct {
	path  string
	stdin io.Reader
}

// stat identifies the input; standard input redirected from a file is
// that file (`export - -o log.jsonl < log.jsonl` must not replace the log).
func (in inputFile) stat() (os.FileInfo, error) {
	if in.path != sessionargs.Stdin {
		return os.Stat(in.path)
	}
	if fh, ok := in.stdin.(interface{ Stat() (os.FileInfo, error) }); ok {
		info, err := fh.Stat()
		if err == nil && !info.Mode().IsRegular() {
			return nil, errors.New("standard input is not a file")
		}
		return info, err
	}
	return nil, errors.New("standard input is not a file")
}

// sameAsInput refuses a stdout redirected onto the log being read
// (`export log.jsonl > log.jsonl` would truncate it before it is read;
// `>>` would grow it while it is read).
func sameAsInput(stdout io.Writer, input inputFile) error {
	fh, ok := stdout.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return nil
	}
	out, err := fh.Stat()
	if err != nil || !out.Mode().IsRegular() {
		return nil
	}
	in, err := input.stat()
	if err != nil {
		return nil
	}
	if os.SameFile(out, in) {
		return fault.Input(errors.New("export: stdout is the session log being read"))
	}
	return nil
}
