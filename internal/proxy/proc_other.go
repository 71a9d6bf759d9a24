//go:build !unix

package proxy

// A reaper does nothing where there are no process groups.
type reaper struct{}

var reaperReady = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func startReaper() *reaper             { return &reaper{} }
func (*reaper) watch(int)              {}
func (*reaper) ready() <-chan struct{} { return reaperReady }
func (*reaper) stop()                  {}
func (*reaper) pid() int               { return 0 }
