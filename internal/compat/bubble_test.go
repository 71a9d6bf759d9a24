package compat

import (
	"testing"
	"testing/synctest"
)

// inBubble runs f in a testing/synctest bubble. The fixtures of these tests
// are in-process (stdio over io.Pipe, HTTP through
// transport.HandlerRoundTripper, both also behind a script), so every goroutine
// of a run waits on channels of the bubble, and a timeout the engine waits
// out (a GET stream that stays open, a request nobody answers) elapses on
// the bubble's clock as soon as nothing else can happen, instead of in
// real seconds. A run that talks to a real process (a real server) or a
// listener must not use it: a goroutine blocked on an os.Pipe or a socket is
// not durably blocked, so the clock would never move.
func inBubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	synctest.Test(t, f)
}
