// Package export is the registry of report formats for a [result.Result]
// and the one JSON writer every `--json` output uses.
//
// Each format is a pure package with the same signature,
// `func Write(w io.Writer, r *result.Result) error`: text, md, github,
// sarif and junit under internal/export/<format>, and [JSON] here. A
// command looks a format up by the name the user typed:
//
//	write, ok := export.Lookup("sarif")
//	if !ok { … usage error listing export.Formats() … }
//	err := write(w, r)
//
// [ReadResult] decodes a saved Result strictly (it is what `mcpward report`
// reads): anything that is not a mcpward Result, or is of a newer schema
// version, is an input error (fault.ErrInput, exit 4).
//
// The package and its format packages are pure: no os, net or clock, so
// they compile to WebAssembly.
package export
