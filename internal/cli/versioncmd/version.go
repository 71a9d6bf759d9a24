// Package versioncmd implements `mcpward version`.
package versioncmd

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
)

// VersionOptions are the inputs of `mcpward version`.
type VersionOptions struct {
	IO      *iostreams.IOStreams
	Version string
	JSON    bool
}

// NewCmdVersion builds `mcpward version`.
func NewCmdVersion(f *cmdutil.Factory, runF func(*VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{IO: f.IOStreams, Version: f.Version}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the mcpward version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return versionRun(opts)
		},
	}
	cmdutil.AddJSONFlags(cmd, &opts.JSON, "version")
	return cmd
}

func versionRun(opts *VersionOptions) error {
	if opts.JSON {
		b, err := json.MarshalIndent(map[string]string{
			"version":  opts.Version,
			"go":       runtime.Version(),
			"platform": runtime.GOOS + "/" + runtime.GOARCH,
		}, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(opts.IO.Out, "%s\n", b)
		return err
	}
	_, err := fmt.Fprintf(opts.IO.Out, "mcpward %s (%s, %s/%s)\n", opts.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
