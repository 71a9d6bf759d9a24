package stream

import (
	"github.com/mcpward/mcpward/internal/filter"
	"github.com/mcpward/mcpward/internal/tui/store"
)

// A Predicate selects rows.
type Predicate func(*store.Row) bool

// Compile turns the filter language (mcpsnoop §4.3) into a predicate. The
// language is internal/filter's, shared with the HTML export, so a filter
// typed in the UI selects the same frames as in an exported page; `id:abc`
// and `id:"abc"` both find the string id "abc".
func Compile(text string) Predicate {
	q := filter.Parse(text)
	if q.Empty() {
		return func(*store.Row) bool { return true }
	}
	return func(r *store.Row) bool {
		fr := FilterRow(r)
		return q.Match(&fr)
	}
}

// FilterRow is what the filter language sees of a row.
func FilterRow(r *store.Row) filter.Row {
	fr := filter.Row{
		Method:     r.Method,
		Tool:       r.Tool,
		ID:         r.ID,
		Kind:       r.Kind.String(),
		HTTPStatus: r.HTTPStatus,
		Warn:       store.Warning(r) != "",
		Mismatch:   r.ErrCode == -32020,
	}
	// Frame text is matched while the source still holds the record.
	if rec := r.Record(); rec != nil {
		fr.Dir = string(rec.Dir)
		if len(rec.Frame) < 1<<16 {
			fr.Text = string(rec.Frame)
		}
	} else {
		fr.Dir = string(r.Dir)
	}
	if c := r.Call; c != nil {
		fr.Status = c.State.String()
		fr.Task = c.TaskID
		fr.TaskStatus = c.TaskStatus
		if fr.Method == "" {
			fr.Method = c.Method
		}
		if fr.ID == "" {
			fr.ID = c.ID
		}
	}
	return fr
}
