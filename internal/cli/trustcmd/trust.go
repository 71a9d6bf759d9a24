// Package trustcmd implements `mcpward trust`: record a settings file found
// in a working directory (.mcpward.toml, .mcpsnoop.toml) as the user's, so
// that the proxy applies it whole, trace-file, hub-socket and otlp
// included. Trust is kept in the user's config directory, keyed by path
// and content hash (settings.Trust).
package trustcmd

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoopfiles"
	"github.com/mcpward/mcpward/internal/settings"
)

// Options are the inputs of `mcpward trust`.
type Options struct {
	File   string // "" : the settings file found in the working directory
	Revoke bool
	List   bool
}

// NewCmdTrust builds `mcpward trust`.
func NewCmdTrust(f *cmdutil.Factory) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "trust [FILE]",
		Short: "Let the proxy apply a working directory's .mcpward.toml whole",
		Long: `Record a settings file (default: ./.mcpward.toml, else ./.mcpsnoop.toml) as trusted.
Until then the proxy ignores the keys of a settings file found in the working directory that
would send data somewhere, write outside the state directory or read the environment
(trace-file, hub-socket, otlp.*), since the file may have come with a cloned repository.
Trust is kept by path and content: after an edit, trust the file again.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.File = args[0]
			}
			if opts.List && (opts.Revoke || opts.File != "") {
				return cmdutil.FlagErrorf("--list takes no FILE and no --revoke")
			}
			return run(f, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Revoke, "revoke", false, "forget the file's trust")
	cmd.Flags().BoolVar(&opts.List, "list", false, "list the trusted files")
	return cmd
}

func run(f *cmdutil.Factory, opts *Options) error {
	out := f.IOStreams.Out
	if opts.List {
		entries, err := settings.Trusted(f.LookupEnv)
		if err != nil {
			return err
		}
		for _, e := range entries {
			fmt.Fprintf(out, "%s %s\n", e.Hash, e.Path)
		}
		return nil
	}
	path := opts.File
	if path == "" {
		cwd, err := f.Getwd()
		if err != nil {
			return fault.Input(fmt.Errorf("working directory: %w", err))
		}
		for _, name := range []string{settings.FileName, mcpsnoopfiles.SettingsFileName} {
			if fi, err := os.Stat(filepath.Join(cwd, name)); err == nil && fi.Mode().IsRegular() {
				path = filepath.Join(cwd, name)
				break
			}
		}
		if path == "" {
			return fault.Input(fmt.Errorf("no %s or %s in %s: name the file to trust", settings.FileName, mcpsnoopfiles.SettingsFileName, cwd))
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fault.Input(fmt.Errorf("trust %s: %w", path, err))
	}
	if opts.Revoke {
		if _, err := settings.Trust(abs, nil, true, f.LookupEnv); err != nil {
			return err
		}
		fmt.Fprintf(out, "no longer trusted: %s\n", abs)
		return nil
	}
	store, hash, err := settings.TrustFile(abs, f.LookupEnv, mcpsnoopfiles.Settings)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "trusted %s (sha256 %s…, kept in %s); once edited it is untrusted again\n", abs, hash[:12], store)
	return nil
}
