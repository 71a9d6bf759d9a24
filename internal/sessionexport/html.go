package sessionexport

import (
	"io"

	"github.com/mcpward/mcpward/internal/sessionexport/html"
)

// An htmlSink streams the JSON export into the HTML report's data
// element (escaped by html.Writer.Data).
type htmlSink struct {
	*jsonSink
	hw *html.Writer
}

func newHTMLSink(w io.Writer, h docHeader) (*htmlSink, error) {
	hw := html.NewWriter(w, &html.Options{Title: h.Source})
	return &htmlSink{jsonSink: newJSONSink(hw.Data(), h), hw: hw}, nil
}

func (s *htmlSink) finish(e *ending) error {
	if err := s.jsonSink.finish(e); err != nil {
		return err
	}
	return s.hw.Close()
}
