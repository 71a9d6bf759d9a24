package fleet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// Jobs finish in the reverse of their order; the outcomes keep the order
// of the names, and no more than Jobs run at once.
func TestRunOrderAndBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		names := []string{"a", "b", "c", "d", "e", "f", "g"}
		var (
			mu       sync.Mutex
			peak     int
			progress []int
		)
		opts := &Options{Jobs: 3, Progress: func(done, total int, running []string) {
			mu.Lock()
			defer mu.Unlock()
			peak = max(peak, len(running))
			if total != len(names) {
				t.Errorf("total %d", total)
			}
			progress = append(progress, done)
		}}
		outs := Run(t.Context(), names, opts, func(ctx context.Context, i int) (string, error) {
			time.Sleep(time.Duration(len(names)-i) * time.Second) // fake time: later names finish first
			return names[i] + "!", nil
		})
		for i, o := range outs {
			if o.Value != names[i]+"!" || o.Err != nil || o.State != Done || !o.Started {
				t.Errorf("outcome %d = %+v", i, o)
			}
		}
		if peak != 3 {
			t.Errorf("peak concurrency %d, want 3", peak)
		}
		if !slices.IsSorted(progress) || progress[len(progress)-1] != len(names) {
			t.Errorf("progress done counts %v", progress)
		}
	})
}

// A job that hangs past its timeout, one that fails and one that panics
// leave the others alone.
func TestRunFailuresStayLocal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		names := []string{"hang", "fail", "panic", "ok"}
		outs := Run(t.Context(), names, &Options{Jobs: 2, Timeout: time.Minute}, func(ctx context.Context, i int) (int, error) {
			switch names[i] {
			case "hang":
				<-ctx.Done()
				return 0, ctx.Err()
			case "fail":
				return 0, errors.New("boom")
			case "panic":
				panic("bug")
			}
			return 42, nil
		})
		if o := outs[0]; o.State != TimedOut || !errors.Is(o.Err, context.DeadlineExceeded) {
			t.Errorf("hang: %+v", o)
		}
		if o := outs[1]; o.State != Done || o.Err == nil || o.Err.Error() != "boom" {
			t.Errorf("fail: %+v", o)
		}
		if o := outs[2]; o.Err == nil || o.Err.Error() != "panic: bug" || len(o.Stack) == 0 {
			t.Errorf("panic: %v", o.Err)
		}
		if o := outs[3]; o.Value != 42 || o.Err != nil || o.State != Done {
			t.Errorf("ok: %+v", o)
		}
	})
}

// Cancelling the run cuts the running jobs short, starts no other, and Run
// returns only after every started job has.
func TestRunCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		names := make([]string, 10)
		for i := range names {
			names[i] = fmt.Sprint(i)
		}
		var (
			mu       sync.Mutex
			returned = map[int]bool{}
		)
		started := make(chan struct{}, len(names))
		go func() {
			<-started
			<-started
			cancel()
		}()
		outs := Run(ctx, names, &Options{Jobs: 2}, func(ctx context.Context, i int) (int, error) {
			started <- struct{}{}
			<-ctx.Done()
			mu.Lock()
			returned[i] = true
			mu.Unlock()
			return i, ctx.Err()
		})
		var ran int
		for i, o := range outs {
			if o.State != Interrupted {
				t.Errorf("job %d state %v, want Interrupted", i, o.State)
			}
			if o.Started {
				ran++
				if !returned[i] {
					t.Errorf("job %d started but Run returned before it did", i)
				}
			}
		}
		if ran != 2 {
			t.Errorf("%d jobs started, want the 2 running when cancelled", ran)
		}
	})
}

func TestOrder(t *testing.T) {
	data := []byte(`{"snapshotDir": "x", "profiles": {"p": {"a": [1]}}, "targets": {"zeta": {"fixture": "a"}, "alpha": {"url": "u", "headers": {"k": "v"}}, "mid": {}}}`)
	got := Order(data, []string{"alpha", "extra", "mid", "zeta"})
	if want := []string{"zeta", "alpha", "mid", "extra"}; !slices.Equal(got, want) {
		t.Errorf("Order = %v, want %v", got, want)
	}
	if got := Order([]byte(`not json`), []string{"a", "b"}); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("Order of garbage = %v, want the sorted names", got)
	}
}
