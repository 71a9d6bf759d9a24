// Package html writes the self-contained HTML session report: one file,
// inline CSS and JavaScript, no external fetch (a Content-Security-Policy
// meta tag allows only the page's own script and style, by hash), with a
// frame stream filtered by the filter language of package filter, a
// collapsible JSON view of every frame, and a per-tool summary.
//
// The data is the JSON session export, streamed into a
// <script type="application/json"> element through [Writer.Data], which
// escapes <, >, &, U+2028 and U+2029 as JSON \u escapes: recorded strings
// (tool descriptions, arguments, stderr) can never close the element or
// start markup. The page's script renders every string with textContent,
// never innerHTML.
//
//	w := html.NewWriter(out, &html.Options{Title: "run.jsonl"})
//	io.Copy(w.Data(), exportJSON)
//	err := w.Close()
//
// The package is pure: it writes to the io.Writer it is given.
package html
