package remote

import (
	"bytes"
	"sync"
)

// syncBuffer is a bytes.Buffer that ssh's stderr copier and the caller
// may use at once; the caller reads b only after Wait.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
