package sessionexport

import (
	"bufio"
	"bytes"
	"io"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/otlpspan"
	"github.com/mcpward/mcpward/internal/traffic"
)

// otlpChunk is how many spans of one session are held before they are
// written as one resourceSpans element, so memory stays bounded on big
// logs. A session with more spans appears in several elements with the
// same resource (OTLP allows it); the resource is read when the chunk is
// written, so a lost-frame count can grow between chunks.
const otlpChunk = 512

// An otlpSink writes an OTLP JSON ExportTraceServiceRequest, one span per
// call (internal/otlpspan builds the spans, W3C trace context from
// each request's _meta).
type otlpSink struct {
	w       *bufio.Writer
	scope   otlpspan.Scope
	b       *otlpspan.Builder
	pending map[string][]otlpspan.Span
	order   []string
	store   func() *calls.Store
	n       int
	started bool
	err     error
}

func newOTLPSink(w io.Writer, version string) (*otlpSink, error) {
	if version == "" {
		version = "dev"
	}
	s := &otlpSink{w: bufio.NewWriterSize(w, 64<<10), scope: otlpspan.Scope{Name: "mcpward", Version: version},
		pending: map[string][]otlpspan.Span{}}
	s.b = otlpspan.NewBuilder(&otlpspan.BuilderOptions{Emit: s.emit})
	return s, nil
}

// hook lets the collector feed the span builder from the call store
// (and, with --check, the findings, which become span events).
func (s *otlpSink) onFrame(f *calls.Frame) { s.b.Frame(f) }
func (s *otlpSink) onSettle(c *calls.Call) { s.b.Settle(c) }
func (s *otlpSink) onFinding(f traffic.Finding) {
	s.b.Finding(otlpspan.Finding{Session: f.Session, Seq: f.Seq, RuleID: f.RuleID, Level: f.Level,
		Class: f.Class, Message: f.Message, Signal: string(f.Signal)})
}

func (s *otlpSink) emit(c *calls.Call, sp otlpspan.Span) {
	if _, ok := s.pending[c.Session]; !ok {
		s.order = append(s.order, c.Session)
	}
	s.pending[c.Session] = append(s.pending[c.Session], sp)
	if len(s.pending[c.Session]) >= otlpChunk {
		s.flush(c.Session)
	}
}

func (s *otlpSink) flush(id string) {
	spans := s.pending[id]
	s.pending[id] = spans[:0]
	if len(spans) == 0 || s.err != nil || s.store == nil {
		return
	}
	ss, ok := s.store().Session(id)
	if !ok {
		return
	}
	body := otlpspan.AppendRequest(nil, s.scope, otlpspan.ResourceSpans{Resource: otlpspan.SessionResource(ss), Spans: spans})
	// Splice the one resourceSpans element out of its request envelope.
	el := bytes.TrimSuffix(bytes.TrimPrefix(body, []byte(`{"resourceSpans":[`)), []byte("]}"))
	if !s.started {
		s.started = true
		s.w.WriteString(`{"resourceSpans":[`)
	}
	if s.n > 0 {
		s.w.WriteByte(',')
	}
	s.n++
	s.w.WriteByte('\n')
	_, s.err = s.w.Write(el)
}

// frame emits the spans of the calls the frame settled (the builder
// holds them until the frame's findings are in).
func (s *otlpSink) frame(*frameInfo) error {
	s.b.Flush()
	return s.err
}
func (s *otlpSink) item(*item) error { return s.err }

func (s *otlpSink) finish(e *ending) error {
	// Calls still open at the end have no end time; they get a span
	// anyway (state pending), so a trace shows what never finished.
	for _, c := range s.store().Open() {
		s.b.Settle(c)
	}
	s.b.Flush()
	for _, id := range s.order {
		s.flush(id)
	}
	if s.err != nil {
		return s.err
	}
	if !s.started {
		s.w.WriteString(`{"resourceSpans":[`)
	}
	s.w.WriteString("]}\n")
	return s.w.Flush()
}
