// Package otlppush is the live OTLP exporter of the proxy: it turns the
// records a running proxy writes into one span per completed call, with
// mcpward's findings as span events, and sends them to an OpenTelemetry
// collector over OTLP/HTTP JSON (POST {endpoint}/v1/traces), with the
// duration metrics of the MCP conventions (POST {endpoint}/v1/metrics).
//
// A call joins the trace its request names (W3C trace context in
// params._meta, else the HTTP request's traceparent header); the other
// calls of a session share the session's own trace.
//
// It never slows the MCP traffic down. [Exporter.Observe] (the session
// log's Export hook, on the log writer goroutine, after redaction) only
// queues a copy of the record, and drops it when the queue is full;
// correlation and the traffic rules (package traffic), the spans and the
// metrics (package export/otlp) are made on the exporter's own goroutine,
// and a second goroutine batches and posts them, retrying with backoff. Spans waiting to be sent are bounded:
// beyond the cap the oldest are dropped. Every drop is counted in
// [Stats].
//
//	exp, err := otlppush.New(&otlppush.Options{Endpoint: "http://127.0.0.1:4318"})
//	log := proxy.NewLog(f, &proxy.LogOptions{Filter: redact, Export: exp.Observe})
//	…
//	log.Close()
//	exp.Close(ctx)
package otlppush

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/otlpspan"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/traffic"
)

// Defaults of Options.
const (
	DefaultBatchSize   = 512
	DefaultBatchDelay  = time.Second
	DefaultMaxSpans    = 4096
	DefaultQueueBytes  = 16 << 20
	DefaultMaxAttempts = 5
	DefaultBackoff     = 200 * time.Millisecond
	DefaultMaxBackoff  = 5 * time.Second
	DefaultTimeout     = 10 * time.Second
	// DefaultMetricInterval is how often, at most, the cumulative metrics
	// are sent while records come in (they are also sent at Close).
	DefaultMetricInterval = 60 * time.Second
)

// Options configure an Exporter.
type Options struct {
	// Endpoint is the collector's base URL (http://127.0.0.1:4318);
	// "/v1/traces" is appended unless the path already ends with it.
	Endpoint string
	// Header is sent with every request (after ${ENV} expansion by the
	// caller): an API key, a tenant.
	Header map[string]string
	// Client posts the requests; nil means a client with DefaultTimeout.
	Client *http.Client
	// Resource is added to every resource (service.version, …).
	Resource []otlpspan.Attr
	// ScopeVersion is the instrumentation scope's version (mcpward's).
	ScopeVersion string
	// BatchSize and BatchDelay: a batch is sent when it has BatchSize
	// spans or its first span has waited BatchDelay.
	BatchSize  int
	BatchDelay time.Duration
	// MaxSpans bounds the spans waiting to be sent; the oldest are
	// dropped beyond it.
	MaxSpans int
	// QueueBytes bounds the records waiting for correlation; records
	// beyond it are dropped (their calls then get no span).
	QueueBytes int64
	// MaxAttempts, Backoff and MaxBackoff: a batch is tried MaxAttempts
	// times on 429, 5xx and network errors, waiting Backoff, doubled each
	// time up to MaxBackoff (or the server's Retry-After, if longer and
	// within MaxBackoff).
	MaxAttempts         int
	Backoff, MaxBackoff time.Duration
	// OnError is told of a batch given up on (once per batch); nil
	// ignores it.
	OnError func(error)
	// MetricInterval: see DefaultMetricInterval. NoMetrics sends spans
	// only.
	MetricInterval time.Duration
	NoMetrics      bool
}

// Stats are an Exporter's counts.
type Stats struct {
	Records        int64 // records correlated
	DroppedRecords int64 // records dropped because the queue was full
	Spans          int64 // spans made
	Sent           int64 // spans the collector accepted
	DroppedSpans   int64 // spans dropped because the span queue was full
	FailedSpans    int64 // spans of batches given up on
	Requests       int64 // trace POSTs made, retries included
	Findings       int64 // findings made on the traffic (span events)
	MetricsSent    int64 // metrics requests the collector accepted
	MetricsFailed  int64 // metrics requests given up on
	// MetricsRefused is set when the collector answered 404 to
	// /v1/metrics (a backend that takes traces only, such as Jaeger):
	// metrics are not sent again.
	MetricsRefused bool
}

// An Exporter sends spans of completed calls to a collector.
type Exporter struct {
	opts Options
	url  string

	metricsURL string

	mu      sync.Mutex
	metrics []byte // the latest metrics request not yet sent
	recs    []session.Record
	recByte int64
	recWake chan struct{}
	spans   []item // oldest first
	spWake  chan struct{}
	closing bool
	stats   Stats

	correlated chan struct{} // closed when the correlator has drained
	sent       chan struct{} // closed when the sender has finished
	stop       context.CancelFunc
	ctx        context.Context
}

// item is a span with the resource of its session.
type item struct {
	session  string
	resource []otlpspan.Attr
	span     otlpspan.Span
}

// New starts an Exporter. The endpoint must be an http or https URL.
func New(opts *Options) (*Exporter, error) {
	e, err := configure(opts)
	if err != nil {
		return nil, err
	}
	e.ctx, e.stop = context.WithCancel(context.Background())
	go e.correlate()
	go e.send()
	return e, nil
}

// configure checks the endpoint and fills in the defaults, starting
// nothing.
func configure(opts *Options) (*Exporter, error) {
	e := &Exporter{opts: *opts, recWake: make(chan struct{}, 1), spWake: make(chan struct{}, 1),
		correlated: make(chan struct{}), sent: make(chan struct{})}
	u, err := url.Parse(opts.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("otlp endpoint must be an http:// or https:// URL, got %q", opts.Endpoint)
	}
	if !strings.HasSuffix(u.Path, "/v1/traces") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/traces"
	}
	e.url = u.String()
	u.Path = strings.TrimSuffix(u.Path, "/v1/traces") + "/v1/metrics"
	e.metricsURL = u.String()
	o := &e.opts
	if o.Client == nil {
		o.Client = &http.Client{Timeout: DefaultTimeout}
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.BatchDelay <= 0 {
		o.BatchDelay = DefaultBatchDelay
	}
	if o.MaxSpans <= 0 {
		o.MaxSpans = DefaultMaxSpans
	}
	if o.QueueBytes <= 0 {
		o.QueueBytes = DefaultQueueBytes
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.Backoff <= 0 {
		o.Backoff = DefaultBackoff
	}
	if o.MetricInterval <= 0 {
		o.MetricInterval = DefaultMetricInterval
	}
	if o.MaxBackoff < o.Backoff {
		o.MaxBackoff = max(DefaultMaxBackoff, o.Backoff)
	}
	return e, nil
}

// Observe queues a copy of rec for correlation. It never blocks: when
// the queue is full the record is dropped and counted. It is meant as the
// session log's Export hook (after redaction). Observe must not be called
// after Close.
func (e *Exporter) Observe(rec *session.Record) {
	size := int64(len(rec.Frame)+len(rec.Info)) + 256
	e.mu.Lock()
	if e.closing || (e.recByte > 0 && e.recByte+size > e.opts.QueueBytes) {
		e.stats.DroppedRecords++
		e.mu.Unlock()
		return
	}
	r := *rec
	// The log may reuse nothing, but the hook's contract lets it: copy.
	r.Frame = bytes.Clone(rec.Frame)
	r.Info = bytes.Clone(rec.Info)
	r.RawFrame = nil
	e.recs = append(e.recs, r)
	e.recByte += size
	e.mu.Unlock()
	wake(e.recWake)
}

func wake(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Stats returns the counts so far.
func (e *Exporter) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

// Close stops taking records, correlates what is queued, and sends the
// remaining spans until ctx ends; then it gives up on what is left. It
// returns an error saying how many spans were not delivered, if any.
func (e *Exporter) Close(ctx context.Context) error {
	e.mu.Lock()
	e.closing = true
	e.mu.Unlock()
	wake(e.recWake)
	<-e.correlated
	wake(e.spWake)
	select {
	case <-e.sent:
	case <-ctx.Done():
		e.stop()
		<-e.sent
	}
	e.stop()
	st := e.Stats()
	if lost := st.DroppedSpans + st.FailedSpans; lost > 0 || st.DroppedRecords > 0 {
		return fmt.Errorf("otlp export: %d of %d spans not delivered, %s not correlated", lost, st.Spans, plural.Count(st.DroppedRecords, "record"))
	}
	if st.MetricsFailed > 0 {
		return fmt.Errorf("otlp export: %s not delivered", plural.Count(st.MetricsFailed, "metrics request"))
	}
	return nil
}

// correlate runs the traffic checker (and its call store) over the
// queued records, building spans and metrics.
func (e *Exporter) correlate() {
	defer close(e.correlated)
	var store *calls.Store
	var res []otlpspan.Attr // the metrics' resource, from the first session
	mx := otlpspan.NewMetrics(time.Now())
	b := otlpspan.NewBuilder(&otlpspan.BuilderOptions{
		Emit: func(c *calls.Call, s otlpspan.Span) {
			var r []otlpspan.Attr
			if ss, ok := store.Session(c.Session); ok {
				r = append(otlpspan.SessionResource(ss), e.opts.Resource...)
			}
			mx.Call(c, &s)
			e.push(item{session: c.Session, resource: r, span: s})
		},
	})
	chk := traffic.New(&traffic.Options{
		OnFrame: b.Frame, OnSettle: b.Settle,
		OnFinding: func(f traffic.Finding) {
			of := otlpspan.Finding{Session: f.Session, Seq: f.Seq, RuleID: f.RuleID, Level: f.Level,
				Class: f.Class, Message: f.Message, Signal: string(f.Signal)}
			b.Finding(of)
			mx.Finding(of)
			e.mu.Lock()
			e.stats.Findings++
			e.mu.Unlock()
		},
	})
	store = chk.Store()
	lastMetrics := time.Now()
	sendMetrics := func() {
		if e.opts.NoMetrics || mx.Empty() {
			return
		}
		body := mx.AppendMetricsRequest(nil, otlpspan.Scope{Name: otlpspan.ServiceName, Version: e.opts.ScopeVersion}, res, time.Now())
		e.mu.Lock()
		e.metrics = body
		e.mu.Unlock()
		wake(e.spWake)
		lastMetrics = time.Now()
	}
	var batch []session.Record
	line := 0
	for {
		e.mu.Lock()
		for len(e.recs) == 0 {
			if e.closing {
				e.mu.Unlock()
				sendMetrics()
				return
			}
			e.mu.Unlock()
			<-e.recWake
			e.mu.Lock()
		}
		batch, e.recs = e.recs, batch[:0]
		e.recByte = 0
		e.stats.Records += int64(len(batch))
		e.mu.Unlock()
		for i := range batch {
			line++
			rec := &batch[i]
			chk.Add(rec, line)
			b.Flush()
			if rec.Dir == session.Meta && rec.Kind == session.KindExit {
				if ss, ok := store.Session(rec.Session); ok {
					mx.Session(ss)
				}
			}
			if res == nil {
				if ss, ok := store.Session(rec.Session); ok {
					res = metricsResource(ss, e.opts.Resource)
				}
			}
		}
		clear(batch)
		if time.Since(lastMetrics) >= e.opts.MetricInterval {
			sendMetrics()
		}
	}
}

// metricsResource is the resource of the metrics: the service and the
// server's label and transport, not the session (a session id would make
// every proxy run its own time series).
func metricsResource(ss *calls.Session, extra []otlpspan.Attr) []otlpspan.Attr {
	r := []otlpspan.Attr{otlpspan.String(otlpspan.AttrServiceName, otlpspan.ServiceName)}
	if ss.Label != "" {
		r = append(r, otlpspan.String(otlpspan.AttrServerLabel, ss.Label))
	}
	if ss.Transport != "" {
		r = append(r, otlpspan.String(otlpspan.AttrTransport, string(ss.Transport)))
	}
	return append(r, extra...)
}

// push queues a span, dropping the oldest beyond MaxSpans.
func (e *Exporter) push(it item) {
	e.mu.Lock()
	e.stats.Spans++
	if len(e.spans) >= e.opts.MaxSpans {
		n := len(e.spans) - e.opts.MaxSpans + 1
		e.stats.DroppedSpans += int64(n)
		clear(e.spans[:n])
		e.spans = append(e.spans[:0], e.spans[n:]...)
	}
	e.spans = append(e.spans, it)
	// Wake the sender for the first span (it starts the batch delay) and
	// for a full batch.
	kick := len(e.spans) == 1 || len(e.spans) >= e.opts.BatchSize
	e.mu.Unlock()
	if kick {
		wake(e.spWake)
	}
}

// send batches and posts spans.
func (e *Exporter) send() {
	defer close(e.sent)
	timer := time.NewTimer(e.opts.BatchDelay)
	defer timer.Stop()
	for {
		e.mu.Lock()
		n := len(e.spans)
		var mb []byte
		if n == 0 {
			// Metrics go after the spans they count.
			mb, e.metrics = e.metrics, nil
		}
		done := e.closing && n == 0 && mb == nil && isClosed(e.correlated)
		draining := e.closing && isClosed(e.correlated)
		e.mu.Unlock()
		if done {
			return
		}
		if mb != nil {
			e.postMetrics(mb)
			if e.ctx.Err() != nil {
				e.failRest()
				return
			}
			continue
		}
		if n < e.opts.BatchSize && !draining {
			if n == 0 {
				select {
				case <-e.spWake:
				case <-e.ctx.Done():
					e.failRest()
					return
				}
				continue
			}
			// The first span of a batch waits at most BatchDelay.
			timer.Reset(e.opts.BatchDelay)
			select {
			case <-timer.C:
			case <-e.spWake:
				timer.Stop() // Go 1.23 timers: no stale tick after Stop
				continue
			case <-e.ctx.Done():
				e.failRest()
				return
			}
		}
		e.mu.Lock()
		k := min(len(e.spans), e.opts.BatchSize)
		items := append([]item(nil), e.spans[:k]...)
		clear(e.spans[:k])
		e.spans = append(e.spans[:0], e.spans[k:]...)
		e.mu.Unlock()
		if len(items) == 0 {
			continue
		}
		err := e.post(e.ctx, e.url, e.encode(items))
		e.mu.Lock()
		if err != nil {
			e.stats.FailedSpans += int64(len(items))
		} else {
			e.stats.Sent += int64(len(items))
		}
		e.mu.Unlock()
		if err != nil && e.opts.OnError != nil {
			e.opts.OnError(err)
		}
		if e.ctx.Err() != nil {
			e.failRest()
			return
		}
	}
}

// postMetrics sends one metrics request. A 404 means the collector takes
// no metrics (Jaeger's OTLP receiver has a traces pipeline only): metrics
// are then turned off instead of failing every minute.
func (e *Exporter) postMetrics(body []byte) {
	e.mu.Lock()
	off := e.stats.MetricsRefused
	e.mu.Unlock()
	if off {
		return
	}
	err := e.post(e.ctx, e.metricsURL, body)
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case err == nil:
		e.stats.MetricsSent++
	case errors.Is(err, errNotFound):
		e.stats.MetricsRefused = true
	default:
		e.stats.MetricsFailed++
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// failRest counts what is still queued as failed (Close's deadline).
func (e *Exporter) failRest() {
	e.mu.Lock()
	e.stats.FailedSpans += int64(len(e.spans))
	e.spans = nil
	e.mu.Unlock()
}

// encode groups items by session (resource) in order of first span.
func (e *Exporter) encode(items []item) []byte {
	var rs []otlpspan.ResourceSpans
	idx := map[string]int{}
	for _, it := range items {
		i, ok := idx[it.session]
		if !ok {
			i = len(rs)
			idx[it.session] = i
			rs = append(rs, otlpspan.ResourceSpans{Resource: it.resource})
		}
		rs[i].Resource = it.resource // the latest view of the session
		rs[i].Spans = append(rs[i].Spans, it.span)
	}
	return otlpspan.AppendRequest(nil, otlpspan.Scope{Name: otlpspan.ServiceName, Version: e.opts.ScopeVersion}, rs...)
}

// errPermanent marks a response not worth retrying (4xx but 429);
// errNotFound is the 404 among them.
var (
	errPermanent = errors.New("rejected")
	errNotFound  = errors.New("not found")
)

// post sends one request, retrying on 429, 5xx and network errors.
func (e *Exporter) post(ctx context.Context, url string, body []byte) error {
	wait := e.opts.Backoff
	var err error
	for attempt := 1; ; attempt++ {
		var retryAfter time.Duration
		retryAfter, err = e.postOnce(ctx, url, body)
		if err == nil || errors.Is(err, errPermanent) || attempt >= e.opts.MaxAttempts || ctx.Err() != nil {
			break
		}
		d := max(wait, min(retryAfter, e.opts.MaxBackoff))
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("otlp export to %s: %w", url, ctx.Err())
		}
		wait = min(2*wait, e.opts.MaxBackoff)
	}
	if err != nil {
		return fmt.Errorf("otlp export to %s: %w", url, err)
	}
	return nil
}

func (e *Exporter) postOnce(ctx context.Context, url string, body []byte) (retryAfter time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errPermanent, err)
	}
	for k, v := range e.opts.Header {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	if url == e.url {
		e.mu.Lock()
		e.stats.Requests++
		e.mu.Unlock()
	}
	resp, err := e.opts.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return 0, nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			retryAfter = time.Duration(s) * time.Second
		}
		return retryAfter, fmt.Errorf("collector answered %s", resp.Status)
	}
	if resp.StatusCode == http.StatusNotFound {
		return 0, fmt.Errorf("%w: %w: collector answered %s", errPermanent, errNotFound, resp.Status)
	}
	return 0, fmt.Errorf("%w: collector answered %s", errPermanent, resp.Status)
}
