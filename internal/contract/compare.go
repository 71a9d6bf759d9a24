package contract

import (
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/report/text"
	"github.com/mcpward/mcpward/internal/result"
)

// Render writes r in format to the streams' stdout. Text is coloured only
// when stdout is a terminal with colour enabled.
func Render(ios *iostreams.IOStreams, format string, r *result.Result) error {
	if format == "text" && ios.ColorEnabled() {
		return text.WriteOptions(ios.Out, r, &text.Options{Color: true})
	}
	w, ok := report.Lookup(format)
	if !ok {
		return report.UnknownFormat(format, report.FormatNames("check"))
	}
	return w(ios.Out, r)
}
