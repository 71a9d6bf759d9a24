// Package report is the registry of every output format of every command
// ([Formats]: name, description, the commands that accept it), the report
// formats of a [result.Result], and the one JSON writer every `--json`
// output uses.
//
// cmdutil.AddFormatFlags takes a command's formats from the registry
// ([FormatNames]) and refuses any other with [UnknownFormat]; no other
// package lists format names (internal/arch tests it). A new format is one
// registry entry, plus its writer.
//
// Each Result format is a pure package with the same signature,
// `func Write(w io.Writer, r *result.Result) error`: text, md, github,
// sarif and junit under internal/report/<format>, and [JSON] here. A
// command looks a format up by the name the user typed:
//
//	write, ok := report.Lookup("sarif") // ok: AddFormatFlags checked the name
//	err := write(w, r)
//
// [ReadResult] decodes a saved Result strictly (it is what `mcpward report`
// reads): anything that is not a mcpward Result, or is of a newer schema
// version, is an input error (fault.ErrInput, exit 4).
//
// The package and its format packages are pure: no os, net or clock, so
// they compile to WebAssembly.
package report
