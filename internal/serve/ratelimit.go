package serve

import (
	"math"
	"sync"
	"time"
)

// A Rate is a token bucket's refill rate and size.
type Rate struct {
	// Every is the time one token takes to come back.
	Every time.Duration
	// Burst is the bucket's size: how many checks may go at once.
	Burst int
}

// maxBuckets bounds the per-client buckets kept: beyond it, the buckets
// that are full again are forgotten (a full bucket is the same as none).
const maxBuckets = 10_000

// A limiter holds one token bucket per key; the clock is passed in, so
// tests step it instead of waiting.
type limiter struct {
	rate Rate

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(r Rate) *limiter {
	return &limiter{rate: r, buckets: map[string]*bucket{}}
}

// refill brings b's tokens up to now.
func (l *limiter) refill(b *bucket, now time.Time) {
	if now.After(b.at) {
		b.tokens = math.Min(float64(l.rate.Burst), b.tokens+float64(now.Sub(b.at))/float64(l.rate.Every))
		b.at = now
	}
}

// allow takes a token of key's bucket at now, or says how long until one
// is back.
func (l *limiter) allow(key string, now time.Time) (bool, time.Duration) {
	if l.rate.Burst <= 0 || l.rate.Every <= 0 {
		return true, 0 // no limit
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= maxBuckets {
			l.sweep(now)
		}
		b = &bucket{tokens: float64(l.rate.Burst), at: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) * float64(l.rate.Every))
	return false, wait
}

// giveBack returns a token taken by allow (the check did not run).
func (l *limiter) giveBack(key string, now time.Time) {
	if l.rate.Burst <= 0 || l.rate.Every <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.buckets[key]; b != nil {
		l.refill(b, now)
		b.tokens = math.Min(float64(l.rate.Burst), b.tokens+1)
	}
}

func (l *limiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		l.refill(b, now)
		if b.tokens >= float64(l.rate.Burst) {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= maxBuckets {
		// Every client is active: forget them all rather than grow.
		clear(l.buckets)
	}
}
