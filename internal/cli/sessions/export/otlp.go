package export

import (
	"errors"
	"io"

	"github.com/mcpward/mcpward/internal/fault"
)

func newOTLPSink(io.Writer, string) (sink, error) {
	return nil, fault.Input(errors.New("export -T otlp: not available in this build yet"))
}
