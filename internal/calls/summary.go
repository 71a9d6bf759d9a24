package calls

import (
	"slices"
	"strings"
	"time"
)

// maxSamples bounds the durations kept per tool (and per session) for
// percentiles. Beyond it, every other sample is dropped and the keep rate
// halves, so memory stays bounded and percentiles stay representative.
const maxSamples = 1 << 16

type durations struct {
	samples []time.Duration
	n       int64
	stride  int64
}

func (d *durations) add(v time.Duration) {
	if d.stride == 0 {
		d.stride = 1
	}
	d.n++
	if d.n%d.stride != 0 {
		return
	}
	d.samples = append(d.samples, v)
	if len(d.samples) >= maxSamples {
		half := d.samples[:0]
		for i := 1; i < len(d.samples); i += 2 {
			half = append(half, d.samples[i])
		}
		d.samples = half
		d.stride *= 2
	}
}

// Percentiles are nearest-rank latency percentiles.
type Percentiles struct {
	P50 time.Duration `json:"p50"`
	P95 time.Duration `json:"p95"`
	P99 time.Duration `json:"p99"`
	Max time.Duration `json:"max"`
}

func (d *durations) percentiles() Percentiles {
	if len(d.samples) == 0 {
		return Percentiles{}
	}
	s := slices.Clone(d.samples)
	slices.Sort(s)
	rank := func(p float64) time.Duration {
		// Nearest rank: the smallest value with at least p% at or below.
		i := int(p/100*float64(len(s))+0.999999999) - 1
		i = max(0, min(i, len(s)-1))
		return s[i]
	}
	return Percentiles{P50: rank(50), P95: rank(95), P99: rank(99), Max: s[len(s)-1]}
}

type toolStats struct {
	calls, errors          int64
	resultBytes, maxResult int64
	durations              durations
}

// A CallRef names one call in a summary.
type CallRef struct {
	Method   string        `json:"method"`
	Name     string        `json:"name,omitempty"`
	ID       string        `json:"id"`
	Duration time.Duration `json:"duration"`
	// Line is the request's line in the log.
	Line  int   `json:"line,omitempty"`
	State State `json:"state"`
}

// A ToolSummary is the cost and latency of one tool.
type ToolSummary struct {
	Name string `json:"name"`
	// Declared: the tool is in the latest tools/list.
	Declared bool  `json:"declared"`
	Calls    int64 `json:"calls"`
	Errors   int64 `json:"errors"`
	Latency  Percentiles
	// DefinitionBytes is the compacted definition object in tools/list,
	// paid on every conversation; DefinitionTokens its estimate.
	DefinitionBytes  int64 `json:"definitionBytes"`
	DefinitionTokens int64 `json:"definitionTokens"`
	DescriptionBytes int64 `json:"descriptionBytes"`
	SchemaBytes      int64 `json:"schemaBytes"`
	// ResultBytes sums the raw result members of finished calls (errors
	// add 0, isError results count); ResultTokens is bytes/4.
	ResultBytes    int64 `json:"resultBytes"`
	ResultTokens   int64 `json:"resultTokens"`
	MaxResultBytes int64 `json:"maxResultBytes"`
}

// A Summary is the cost and latency of one session, for the UI and the
// exports. It is computed from counters, never from frames.
type Summary struct {
	Session string `json:"session"`
	// Tools: every advertised tool (called or not), then tools called
	// without being advertised; sorted errors first, then p50 descending,
	// then name.
	Tools []ToolSummary `json:"tools"`
	// ToolCount and DefinitionBytes/Tokens cover the latest tools/list;
	// ListComplete is false while its pagination is incomplete ("so far").
	ToolCount        int   `json:"toolCount"`
	DefinitionBytes  int64 `json:"definitionBytes"`
	DefinitionTokens int64 `json:"definitionTokens"`
	ListComplete     bool  `json:"listComplete"`
	// Latency is over every finished call of the session.
	Latency Percentiles `json:"latency"`
	// Slowest lists the five slowest finished calls.
	Slowest []CallRef `json:"slowest"`
	// Undeclared names tools that were called but never advertised.
	Undeclared []string `json:"undeclared"`
	// Heaviest is the tool with the largest single result.
	Heaviest string `json:"heaviest,omitempty"`
	// Estimator names the token estimator (see EstimateTokens).
	Estimator string `json:"estimator"`
}

// Summary returns the cost and latency summary of a session ("" or an
// unknown id gives an empty summary).
func (s *Store) Summary(sessionID string) Summary {
	ss, ok := s.sessions[sessionID]
	if !ok {
		return Summary{Session: sessionID, Tools: []ToolSummary{}, Slowest: []CallRef{}, Undeclared: []string{}, Estimator: EstimatorName}
	}
	return ss.Summary()
}

// Summary computes the session's cost and latency summary.
func (ss *Session) Summary() Summary {
	sum := Summary{Session: ss.ID, ListComplete: ss.listed, Tools: []ToolSummary{},
		Undeclared: []string{}, Slowest: slices.Clone(ss.slowest), Estimator: EstimatorName}
	if sum.Slowest == nil {
		sum.Slowest = []CallRef{}
	}
	var heaviest int64
	add := func(name string, def *ToolDef) {
		ts := ToolSummary{Name: name, Declared: def != nil}
		if def != nil {
			ts.DefinitionBytes = int64(len(def.Raw))
			ts.DefinitionTokens = int64(EstimateTokens(def.Raw))
			ts.DescriptionBytes, ts.SchemaBytes = def.DescriptionBytes, def.SchemaBytes
			sum.ToolCount++
			sum.DefinitionBytes += ts.DefinitionBytes
			sum.DefinitionTokens += ts.DefinitionTokens
		}
		if st, ok := ss.stats[name]; ok {
			ts.Calls, ts.Errors = st.calls, st.errors
			ts.Latency = st.durations.percentiles()
			ts.ResultBytes, ts.MaxResultBytes = st.resultBytes, st.maxResult
			ts.ResultTokens = (st.resultBytes + 3) / 4
			if st.maxResult > heaviest {
				heaviest, sum.Heaviest = st.maxResult, name
			}
		}
		sum.Tools = append(sum.Tools, ts)
	}
	for _, n := range ss.toolOrder {
		add(n, ss.tools[n])
	}
	var extra []string
	for n := range ss.stats {
		if _, ok := ss.tools[n]; !ok {
			extra = append(extra, n)
		}
	}
	slices.Sort(extra)
	for _, n := range extra {
		add(n, nil)
		sum.Undeclared = append(sum.Undeclared, n)
	}
	slices.SortStableFunc(sum.Tools, func(a, b ToolSummary) int {
		if (a.Errors > 0) != (b.Errors > 0) {
			if a.Errors > 0 {
				return -1
			}
			return 1
		}
		if a.Latency.P50 != b.Latency.P50 {
			if a.Latency.P50 > b.Latency.P50 {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	sum.Latency = ss.all.percentiles()
	return sum
}
