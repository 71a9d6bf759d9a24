package democmd

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpward/mcpward/internal/tui"
	"github.com/mcpward/mcpward/internal/tui/memsource"
)

// DemoIntro is the line the demo's live view keeps on screen: what plays
// and the keys to start with (the real UI records what a proxy relays).
const DemoIntro = "demo: a scripted session with a clean@v1 server, as mcpward proxy would record it · enter opens · s tool summary · : commands · ? keys · q quits"

// demoUI plays a scripted clean@v1 session (synthetic records: initialize,
// tools/list, calls with progress, an error, stderr, one left pending)
// into the live view, one record every 400 ms, then a steady trickle of
// calls; exports go to the throw-away directory dir.
func demoUI(ctx context.Context, opts *DemoOptions, dir string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	src := memsource.New(true)
	go func() {
		recs := memsource.Script("demo-clean-0001", "clean", time.Now())
		tk := time.NewTicker(400 * time.Millisecond)
		defer tk.Stop()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case now := <-tk.C:
				if i < len(recs) {
					r := recs[i]
					r.Time = now
					src.Push(r)
					continue
				}
				seq := uint64(len(recs) + 2*(i-len(recs)) + 1)
				req, resp := memsource.Call("demo-clean-0001", "clean", seq, now, 100+i)
				resp.Time = now.Add(time.Duration(i%7) * 3 * time.Millisecond)
				src.Push(req, resp)
			}
		}
	}()
	fmt.Fprintf(opts.IO.ErrOut, "demo: a scripted clean@v1 session in the live view (q quits)\n")
	return tui.Run(ctx, tui.Options{Source: src, Baseline: tui.BaselinesIn(dir), StateDir: dir,
		Dark: true, AutoTheme: true, Version: opts.Version, Context: ctx, Intro: DemoIntro}, opts.IO)
}
