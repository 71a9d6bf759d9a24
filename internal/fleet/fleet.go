// Package fleet runs one job per target, a bounded number at a time, and
// hands the outcomes back in the targets' order, whatever order they
// finished in: `check --all` and `compat` over several targets use it.
//
// A job that fails, panics or outlives its timeout does not stop the
// others; cancelling the context (Ctrl-C) cuts every running job short and
// starts no new one. Run returns only after every job it started has
// returned, so a job that closes its sessions before returning (which
// reaps their child processes) leaves nothing behind.
//
//	outs := fleet.Run(ctx, names, &fleet.Options{Jobs: 4, Timeout: time.Minute},
//		func(ctx context.Context, i int) (*result.Result, error) { … })
package fleet

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

// Options bound a run.
type Options struct {
	// Jobs is how many jobs run at once (values below 1 mean 1).
	Jobs int
	// Timeout bounds each job (0: none). A job past it sees its context
	// done with context.DeadlineExceeded.
	Timeout time.Duration
	// Progress, when set, is called after a job starts or ends with the
	// count of finished jobs and the names of the running ones, in target
	// order. Calls are serialised.
	Progress func(done, total int, running []string)
}

// State says how a job ended.
type State int

const (
	// Done: the job ran to its end (its Err may still be set).
	Done State = iota
	// TimedOut: the job's own timeout passed before it returned.
	TimedOut
	// Interrupted: the run's context was cancelled while the job ran, or
	// before it could start (then Started is false).
	Interrupted
)

// An Outcome is what one job returned.
type Outcome[T any] struct {
	Value   T
	Err     error
	State   State
	Started bool
	// Stack is the job's stack when it panicked (Err says so in one line).
	Stack []byte
}

// Run calls job once per name, at most opts.Jobs at a time, each with a
// context bounded by opts.Timeout, and returns the outcomes in the order of
// names. A panic in a job becomes that job's Err (with the stack), not a
// crash of the others.
func Run[T any](ctx context.Context, names []string, opts *Options, job func(ctx context.Context, i int) (T, error)) []Outcome[T] {
	if opts == nil {
		opts = &Options{}
	}
	jobs := max(opts.Jobs, 1)
	out := make([]Outcome[T], len(names))
	var (
		mu      sync.Mutex
		done    int
		running = make([]bool, len(names))
	)
	report := func() {
		if opts.Progress == nil {
			return
		}
		var names2 []string
		for i, r := range running {
			if r {
				names2 = append(names2, names[i])
			}
		}
		opts.Progress(done, len(names), names2)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, len(names)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					// The feeder may hand out one more name as the
					// context ends: it is not started.
					out[i] = Outcome[T]{State: Interrupted, Err: ctx.Err()}
					continue
				}
				mu.Lock()
				running[i] = true
				report()
				mu.Unlock()
				o := runOne(ctx, opts.Timeout, i, job)
				mu.Lock()
				out[i] = o
				running[i] = false
				done++
				report()
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range names {
		select {
		case next <- i:
		case <-ctx.Done():
			for j := i; j < len(names); j++ {
				out[j] = Outcome[T]{State: Interrupted, Err: ctx.Err()}
			}
			break feed
		}
	}
	close(next)
	wg.Wait()
	return out
}

func runOne[T any](ctx context.Context, timeout time.Duration, i int, job func(context.Context, int) (T, error)) (o Outcome[T]) {
	o.Started = true
	jctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		jctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	defer func() {
		if v := recover(); v != nil {
			o.Err, o.Stack = fmt.Errorf("panic: %v", v), debug.Stack()
		}
		switch {
		case ctx.Err() != nil:
			o.State = Interrupted
		case jctx.Err() != nil:
			o.State = TimedOut
		}
	}()
	o.Value, o.Err = job(jctx, i)
	return o
}
