// Package atomicfile writes a file so that readers see either the old
// content or the new, never a partial file: the data goes to a temporary
// file in the same directory, is synced to disk, and is renamed over the
// destination. On any error the temporary file is removed and the
// destination is left as it was.
//
//	err := atomicfile.Write("report.sarif", data, 0o644)
package atomicfile
