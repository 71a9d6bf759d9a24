package cmdutil

import (
	"fmt"
	"sync"

	"github.com/mcpward/mcpward/internal/iostreams"
)

// Progress shows what a long command is doing, on one line of stderr that
// it rewrites, and only when stderr is a terminal: piped output and logs
// stay clean.
type Progress struct {
	mu     sync.Mutex
	io     *iostreams.IOStreams
	shown  bool
	active bool
}

// NewProgress returns a Progress for the streams.
func NewProgress(io *iostreams.IOStreams) *Progress {
	return &Progress{io: io, active: io.IsStderrTTY()}
}

// Show replaces the progress line with msg.
func (p *Progress) Show(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.active {
		return
	}
	fmt.Fprintf(p.io.ErrOut, "\r\033[K… %s", msg)
	p.shown = true
}

// Stop clears the progress line. It is safe to call more than once.
func (p *Progress) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.io.ErrOut, "\r\033[K")
		p.shown = false
	}
}
