package calls

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/session"
)

// A Session is what the store knows about one recorded session (one proxy
// run, one "session" id in the log). Counters grow as records come in.
type Session struct {
	ID        string            `json:"id"`
	Label     string            `json:"label"`
	Transport session.Transport `json:"transport"`
	Start     time.Time         `json:"start"`
	// End is the time of the last record.
	End time.Time `json:"end"`
	// FirstLine is the line of the session's first record.
	FirstLine int `json:"firstLine"`
	// Records counts every record; Frames the JSON-RPC and invalid frames
	// on the protocol channel.
	Records int64 `json:"records"`
	Frames  int64 `json:"frames"`
	// Calls counts requests (an MRTR exchange counts once); Errors the
	// error signal (see [NoteError]).
	Calls  int64 `json:"calls"`
	Errors int64 `json:"errors"`
	// Missing is the sum of forward gaps in seq; OutOfOrder counts
	// records whose seq did not grow (never expected from mcpward's
	// recorder, reported rather than counted as missing); Lost is what
	// the recorder's lost records declare.
	Missing    int64 `json:"missing"`
	OutOfOrder int64 `json:"outOfOrder,omitempty"`
	Lost       int64 `json:"lost,omitempty"`
	// Command is the recorded argv (stdio); Target the upstream URL (HTTP).
	Command []string `json:"command,omitempty"`
	Target  string   `json:"target,omitempty"`
	// Revision is the latest revision negotiated or declared.
	Revision      mcp.Revision `json:"revision,omitempty"`
	ServerName    string       `json:"serverName,omitempty"`
	ServerVersion string       `json:"serverVersion,omitempty"`
	ClientName    string       `json:"clientName,omitempty"`
	ClientVersion string       `json:"clientVersion,omitempty"`
	// ExitCode is the server's exit code from the exit record, if any.
	ExitCode *int `json:"exitCode,omitempty"`
	// WireOrder is set when the start record says its writer numbers
	// frames in the order of the wire (session.OrderWire): a response
	// numbered before its request is then a defect of mcpward's recorder,
	// not a trait of an older writer.
	WireOrder bool `json:"-"`

	index   int
	lastSeq uint64
	// revisions negotiated by initialize, per Mcp-Session-Id ("" on stdio).
	revisions map[string]mcp.Revision
	// initCaps is the client capabilities of the last initialize.
	InitCaps json.RawMessage `json:"-"`
	// ServerCaps is the server capabilities from initialize or discover.
	ServerCaps json.RawMessage `json:"-"`
	modernSeen bool

	tools     map[string]*ToolDef
	toolOrder []string
	listed    bool // a complete tools/list was seen
	run       *pageRun
	stats     map[string]*toolStats
	slowest   []CallRef
	all       durations
}

// A ToolDef is one tool of the latest tools/list.
type ToolDef struct {
	Name string
	// Raw is the definition object, compacted.
	Raw json.RawMessage
	// InputSchema is the raw inputSchema member (nil when absent).
	InputSchema json.RawMessage
	// Line is where the listing page was recorded.
	Line int
	// DescriptionBytes and SchemaBytes are the compacted description
	// string (with quotes) and inputSchema.
	DescriptionBytes int64
	SchemaBytes      int64
	bindings         []mcp.HeaderBinding
	bindingsDone     bool
}

// Bindings returns the tool's x-mcp-header bindings (computed once).
func (t *ToolDef) Bindings() []mcp.HeaderBinding {
	if !t.bindingsDone {
		t.bindingsDone = true
		t.bindings, _ = mcp.HeaderBindings(t.InputSchema)
	}
	return t.bindings
}

// pageRun follows one paginated tools/list from its first page.
type pageRun struct {
	tools  map[string]*ToolDef
	order  []string
	scopes []string // cacheScope per page
}

// MissingFrames is how many records the log lacks: the seq gaps, or what
// its lost records declare when that is more. The recorder gives a frame it
// fails to write its seq, so a gap and the lost record that explains it
// count the same frames; adding them would count each twice.
func (ss *Session) MissingFrames() int64 { return max(ss.Missing, ss.Lost) }

func newSession(rec *session.Record, line, index int) *Session {
	return &Session{
		ID: rec.Session, Label: rec.Label, Transport: rec.Transport,
		Start: rec.Time, FirstLine: line, index: index,
		revisions: map[string]mcp.Revision{},
		tools:     map[string]*ToolDef{},
		stats:     map[string]*toolStats{},
	}
}

func (ss *Session) observe(rec *session.Record) {
	ss.Records++
	if rec.Time.After(ss.End) {
		ss.End = rec.Time
	}
	if ss.Transport == "" {
		ss.Transport = rec.Transport
	}
	switch {
	case ss.lastSeq == 0 && ss.Records == 1:
		if rec.Seq > 1 {
			ss.Missing += int64(rec.Seq - 1)
		}
		ss.lastSeq = rec.Seq
	case rec.Seq > ss.lastSeq:
		ss.Missing += int64(rec.Seq - ss.lastSeq - 1)
		ss.lastSeq = rec.Seq
	default:
		ss.OutOfOrder++
	}
	if rec.Dir == session.ClientToServer || rec.Dir == session.ServerToClient {
		if rec.HasFrame {
			ss.Frames++
		}
	}
}

func (ss *Session) meta(rec *session.Record) {
	switch rec.Kind {
	case session.KindStart:
		var v struct {
			Argv   []string `json:"argv"`
			Target string   `json:"target"`
			Order  string   `json:"order"`
		}
		if json.Unmarshal(rec.Info, &v) == nil {
			ss.Command, ss.Target = v.Argv, v.Target
			ss.WireOrder = v.Order == session.OrderWire
		}
	case session.KindLost:
		var v struct {
			Frames int64 `json:"frames"`
		}
		if json.Unmarshal(rec.Info, &v) == nil {
			ss.Lost += v.Frames
		}
	case session.KindExit:
		var v struct {
			Code *int `json:"code"`
		}
		if json.Unmarshal(rec.Info, &v) == nil {
			ss.ExitCode = v.Code
		}
	}
}

// Identity is the server identity a tool baseline is keyed by: label,
// serverInfo name and command line or URL.
func (ss *Session) Identity() (label, server, endpoint string) {
	endpoint = ss.Target
	if endpoint == "" {
		endpoint = strings.Join(ss.Command, " ")
	}
	return ss.Label, ss.ServerName, endpoint
}

// revisionFor returns the revision initialize negotiated in the scope of
// an Mcp-Session-Id (or the session's for stdio and stateless HTTP).
func (ss *Session) revisionFor(sid string) mcp.Revision {
	if r, ok := ss.revisions[sid]; ok {
		return r
	}
	if sid != "" {
		if r, ok := ss.revisions[""]; ok {
			return r
		}
	}
	return ""
}

func (ss *Session) noteInitialize(p *Params) {
	if p.InitCaps != nil {
		ss.InitCaps = p.InitCaps
	}
	if p.Meta != nil {
		ss.clientInfo(p.Meta[MetaClientInfo])
	}
}

func (ss *Session) clientInfo(raw json.RawMessage) {
	var ci mcp.Implementation
	if raw != nil && json.Unmarshal(raw, &ci) == nil && ci.Name != "" {
		ss.ClientName, ss.ClientVersion = ci.Name, ci.Version
	}
}

func (ss *Session) noteModern(r mcp.Revision, p *Params) {
	ss.modernSeen = true
	ss.Revision = r
	if p.Meta != nil {
		ss.clientInfo(p.Meta[MetaClientInfo])
	}
}

// ModernSeen reports whether any request declared 2026-07-28 or later.
func (ss *Session) ModernSeen() bool { return ss.modernSeen }

func (ss *Session) noteInitResult(raw json.RawMessage, res *Result, sid string) {
	var v struct {
		ServerInfo   mcp.Implementation `json:"serverInfo"`
		Capabilities json.RawMessage    `json:"capabilities"`
		ClientInfo   json.RawMessage    `json:"clientInfo"`
	}
	_ = json.Unmarshal(raw, &v)
	if res.ProtocolVersion != "" {
		r := mcp.Revision(res.ProtocolVersion)
		ss.revisions[sid] = r
		ss.revisions[""] = r
		ss.Revision = r
	}
	if v.ServerInfo.Name != "" {
		ss.ServerName, ss.ServerVersion = v.ServerInfo.Name, v.ServerInfo.Version
	}
	if v.Capabilities != nil {
		ss.ServerCaps = v.Capabilities
	}
}

func (ss *Session) noteDiscover(raw json.RawMessage, res *Result) {
	var v struct {
		Capabilities json.RawMessage    `json:"capabilities"`
		ServerInfo   mcp.Implementation `json:"serverInfo"`
	}
	_ = json.Unmarshal(raw, &v)
	if v.Capabilities != nil {
		ss.ServerCaps = v.Capabilities
	}
	if v.ServerInfo.Name != "" && ss.ServerName == "" {
		ss.ServerName, ss.ServerVersion = v.ServerInfo.Name, v.ServerInfo.Version
	}
}

func (ss *Session) noteServerInfo(raw json.RawMessage) {
	var si mcp.Implementation
	if json.Unmarshal(raw, &si) == nil && si.Name != "" {
		ss.ServerName, ss.ServerVersion = si.Name, si.Version
	}
}

// pageRun returns the listing a tools/list request continues: a request
// without a cursor starts a new one.
func (ss *Session) pageRun(cursor json.RawMessage) *pageRun {
	if cursor == nil || string(cursor) == "null" || ss.run == nil {
		ss.run = &pageRun{tools: map[string]*ToolDef{}}
	}
	return ss.run
}

// notePage records one tools/list page; on the last page the session's
// tool set is replaced. It reports whether the page held a tools array.
func (ss *Session) notePage(c *Call, raw json.RawMessage, res *Result) bool {
	var v struct {
		Tools      []json.RawMessage `json:"tools"`
		CacheScope json.RawMessage   `json:"cacheScope"`
	}
	if json.Unmarshal(raw, &v) != nil || v.Tools == nil {
		return false
	}
	run := c.cursorRun
	if run == nil {
		run = ss.pageRun(nil)
	}
	run.scopes = append(run.scopes, string(v.CacheScope))
	for _, t := range v.Tools {
		var head struct {
			Name        string          `json:"name"`
			Description json.RawMessage `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if json.Unmarshal(t, &head) != nil {
			continue
		}
		def := &ToolDef{Name: head.Name, Raw: compact(t), InputSchema: head.InputSchema, Line: c.RespLine}
		if head.Description != nil {
			def.DescriptionBytes = int64(len(compact(head.Description)))
		}
		if head.InputSchema != nil {
			def.SchemaBytes = int64(len(compact(head.InputSchema)))
		}
		if _, dup := run.tools[head.Name]; !dup {
			run.order = append(run.order, head.Name)
		}
		run.tools[head.Name] = def
	}
	if res.NextCursor == nil {
		ss.tools, ss.toolOrder, ss.listed = run.tools, run.order, true
		if ss.run == run {
			ss.run = nil
		}
	} else if !ss.listed {
		// Show what is known so far while pagination is incomplete.
		ss.tools, ss.toolOrder = run.tools, run.order
	}
	return true
}

// PageScopes returns the cacheScope members (raw JSON, "" when absent) of
// the pages seen so far in the listing c belongs to.
func (c *Call) PageScopes() []string {
	if c.cursorRun == nil {
		return nil
	}
	return c.cursorRun.scopes
}

// Tool returns the definition of a tool from the latest tools/list.
func (ss *Session) Tool(name string) (*ToolDef, bool) {
	t, ok := ss.tools[name]
	return t, ok
}

// Tools returns the latest tool definitions in listing order; complete
// is false while no tools/list was seen to its last page.
func (ss *Session) Tools() (tools []*ToolDef, complete bool) {
	for _, n := range ss.toolOrder {
		tools = append(tools, ss.tools[n])
	}
	return tools, ss.listed
}

// settled folds a call into the per-tool statistics. Pending,
// superseded and cancelled calls without a late result are left out.
func (ss *Session) settled(c *Call, prev State) {
	if c.State != Completed && c.State != Failed && c.State != LateResult {
		return
	}
	d := c.Duration()
	ss.all.add(d)
	ss.noteSlow(c, d)
	if c.Method != mcp.MethodToolsCall {
		return
	}
	st, ok := ss.stats[c.Name]
	if !ok {
		st = &toolStats{}
		ss.stats[c.Name] = st
	}
	st.calls++
	if c.State == Failed || c.HasError || c.IsError {
		st.errors++
	}
	st.durations.add(d)
	if !c.HasError {
		st.resultBytes += c.ResultBytes
		if c.ResultBytes > st.maxResult {
			st.maxResult = c.ResultBytes
		}
	}
}

func (ss *Session) noteSlow(c *Call, d time.Duration) {
	const keep = 5
	ref := CallRef{Method: c.Method, Name: c.Name, ID: c.ID, Duration: d, Line: c.ReqLine, State: c.State}
	i, _ := slices.BinarySearchFunc(ss.slowest, d, func(r CallRef, d time.Duration) int {
		switch {
		case r.Duration > d:
			return -1
		case r.Duration < d:
			return 1
		}
		return 0
	})
	if i >= keep {
		return
	}
	ss.slowest = slices.Insert(ss.slowest, i, ref)
	if len(ss.slowest) > keep {
		ss.slowest = ss.slowest[:keep]
	}
}
