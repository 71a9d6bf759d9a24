package compat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// era decides modern-only / dual / legacy / unknown from the session's
// handshake and one fresh legacy initialize, and checks how a modern-only
// server turns a legacy client away.
func (e *engine) era(ctx context.Context) {
	hs := e.s.Handshake
	discoverOK := hs != nil && hs.Discover != nil && hs.Discover.Msg != nil && hs.Discover.Msg.Error == nil && hs.Era == mcp.EraModern
	if discoverOK {
		var d mcp.DiscoverResult
		if err := json.Unmarshal(hs.Discover.Msg.Result, &d); err == nil {
			e.discover = &d
			e.rep.SupportedVersions = d.SupportedVersions
			if si := d.Server(); si != nil {
				e.serverName = si.Name
				e.rep.Server = si.Name + "@" + si.Version
			}
		}
	}
	initOK := hs != nil && hs.Era == mcp.EraLegacy
	var initResp *client.Response
	var initReq []byte
	if !initOK {
		// A fresh connection whose first message is initialize (on stdio a
		// process that already answered server/discover may refuse a late
		// initialize), so that a dual-era server's switch to legacy
		// semantics does not touch the session under test.
		if fs, err := e.s.Fresh(ctx, func(o *client.Options) { o.Era, o.LegacyVersion = mcp.EraLegacy, mcp.LatestLegacy }); err == nil {
			initOK = true
			fs.Close()
		}
	}
	if !initOK {
		// For the evidence of how a legacy client is turned away.
		fs, err := e.s.Fresh(ctx, nil)
		if err == nil {
			initReq, initResp, err = legacyInitialize(ctx, fs)
			if err == nil && initResp.Msg.Error == nil {
				initOK = true
			}
			fs.Close()
		}
	} else if hs.Initialize != nil && hs.Initialize.Msg != nil {
		var ir mcp.InitializeResult
		if json.Unmarshal(hs.Initialize.Msg.Result, &ir) == nil {
			e.rep.SupportedVersions = []string{ir.ProtocolVersion}
			if listed := legacyDiscover(hs); listed != nil {
				// server/discover answered, listing legacy versions only:
				// that list is the server's own word on what it serves.
				e.rep.SupportedVersions = listed
			}
			if ir.ServerInfo.Name != "" {
				e.serverName = ir.ServerInfo.Name
				e.rep.Server = ir.ServerInfo.Name + "@" + ir.ServerInfo.Version
			}
		}
	}
	e.modern = discoverOK
	e.rep.Era = rules.ClassifyEra(discoverOK, initOK)
	msg := map[string]string{
		rules.EraModernOnly: "modern-only: serves server/discover (2026-07-28) and turns initialize away",
		rules.EraDual:       "dual: serves server/discover and the legacy initialize handshake",
		rules.EraLegacy:     "legacy: serves only the initialize handshake; 2026-07-28-only clients cannot use it",
		rules.EraUnknown:    "unknown: neither server/discover nor initialize succeeded",
	}[e.rep.Era]
	if listed := legacyDiscover(hs); listed != nil && e.rep.Era == rules.EraLegacy {
		msg = fmt.Sprintf("legacy: server/discover lists only %s, so it is served through the initialize handshake; 2026-07-28-only clients cannot use it", strings.Join(listed, ", "))
	}
	e.discoverServerError()
	if forced := e.s.Client.Options().Era; forced != "" {
		msg += " (the session under test was forced to the " + string(forced) + " era with --era)"
	}
	e.finding("compat.era", "discover", "", msg, nil)

	if e.rep.Era == rules.EraModernOnly && initResp != nil && initResp.Msg != nil && initResp.Msg.Error != nil {
		er := initResp.Msg.Error
		var d struct {
			Supported []string `json:"supported"`
		}
		_ = json.Unmarshal(er.Data, &d)
		// On HTTP a legacy initialize already fails header validation
		// (DIGEST §1.4): a 400 -32020 is acceptable there.
		headerReject := e.kind == "http" && er.Code == mcp.CodeHeaderMismatch && initResp.HTTPStatus() == 400
		if len(d.Supported) == 0 && !headerReject {
			e.finding("compat.legacy_error_unhelpful", "initialize", "",
				fmt.Sprintf("initialize was rejected with %d (%s) without data.supported listing the versions to use", er.Code, oneLine(er.Message)),
				exchange(initReq, initResp, ""))
		}
	}
}

// discoverServerError reports a server/discover answered with HTTP 5xx
// (the client fell back to initialize all the same).
func (e *engine) discoverServerError() {
	hs := e.s.Handshake
	if hs == nil || e.kind != "http" {
		return
	}
	req := []byte(`{"method":"server/discover"}`)
	var ex *exchangeT
	var he *client.HTTPError
	switch {
	case hs.Discover != nil && hs.Discover.HTTPStatus() >= 500:
		ex = exchange(req, hs.Discover, "request body not kept; method shown")
	case errors.As(hs.DiscoverFailure, &he) && he.Info.Status >= 500:
		ex = &exchangeT{Request: req, Method: http.MethodPost, Status: he.Info.Status, Response: compactJSON(truncate(he.Info.Body, 2048)), Note: "request body not kept; method shown"}
	default:
		return
	}
	then := "mcpward fell back to initialize"
	if hs.Era != mcp.EraLegacy {
		then = "initialize did not succeed either"
	}
	e.finding("era.discover_server_error", "discover", "", fmt.Sprintf("server/discover was answered HTTP %d; %s", ex.Status, then), ex)
}

// legacyDiscover returns the versions of a DiscoverResult that led the
// client to the legacy handshake (it lists no 2026-07-28), or nil.
func legacyDiscover(hs *client.Handshake) []string {
	if hs == nil || hs.Era != mcp.EraLegacy || hs.Discover == nil || hs.Discover.Msg == nil || hs.Discover.Msg.Error != nil {
		return nil
	}
	var d mcp.DiscoverResult
	if json.Unmarshal(hs.Discover.Msg.Result, &d) != nil || len(d.SupportedVersions) == 0 {
		return nil
	}
	return d.SupportedVersions
}

// legacyInitialize sends the initialize a 2025-11-25 client sends: no
// modern _meta and, on HTTP, no MCP-Protocol-Version header.
func legacyInitialize(ctx context.Context, s *connect.Session) ([]byte, *client.Response, error) {
	params := map[string]any{
		"protocolVersion": rules.LegacyVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      mcp.Implementation{Name: "mcpward", Version: "compat"},
	}
	id := jsonrpc.StringID("mcpward-legacy-probe")
	frame, _ := jsonrpc.EncodeRequest(id, mcp.MethodInitialize, params)
	resp, err := s.Client.Request(ctx, mcp.MethodInitialize, params, &client.RequestOptions{
		OmitMeta: true, ID: &id,
		Header: map[string][]string{"Mcp-Protocol-Version": nil, "Mcp-Method": nil},
	})
	return frame, resp, err
}

// surface lists every cacheable result on the session under test and
// checks hints, page scopes, resultType and error codes.
func (e *engine) surface(ctx context.Context) error {
	c := e.s.Client
	if e.discover != nil {
		e.checkResult(mcp.MethodDiscover, "discover", e.s.Handshake.Discover)
	}
	lists := []struct{ method, key, capability string }{
		{mcp.MethodToolsList, "tools", "tools"},
		{mcp.MethodPromptsList, "prompts", "prompts"},
		{mcp.MethodResourcesList, "resources", "resources"},
		{mcp.MethodResourcesTemplatesList, "resourceTemplates", "resources"},
	}
	var firstURI string
	for _, l := range lists {
		lr := c.List(ctx, l.method)
		for i, resp := range lr.Responses {
			if resp.Msg != nil && resp.Msg.Error == nil {
				e.checkResult(l.method, fmt.Sprintf("%s.page%d", l.method, i+1), resp)
			}
		}
		if lr.Err != nil {
			if l.method == mcp.MethodToolsList {
				e.problem("tools/list: %s", lr.Err.Message)
			}
			if lr.Err.Kind != "unsupported" && l.method != mcp.MethodToolsList {
				// An undeclared optional list answered with an error other
				// than -32601 is recorded, not fatal.
				e.noteCode(lr.Responses)
			}
			e.noteCode(lr.Responses)
			continue
		}
		e.noteCode(lr.Responses)
		if e.modern {
			e.checkScopes(l.method, lr.Responses)
		}
		for _, page := range lr.Pages {
			var items map[string][]json.RawMessage
			_ = json.Unmarshal(page, &items)
			for _, raw := range items[l.key] {
				switch l.method {
				case mcp.MethodToolsList:
					var t toolInfo
					if json.Unmarshal(raw, &t) == nil && t.Name != "" {
						t.raw = raw
						e.tools = append(e.tools, t)
						e.rep.Tools = append(e.rep.Tools, t.Name)
					}
				case mcp.MethodResourcesList:
					var r struct {
						URI string `json:"uri"`
					}
					if firstURI == "" && json.Unmarshal(raw, &r) == nil {
						firstURI = r.URI
					}
				}
			}
		}
	}
	if firstURI != "" {
		resp, err := c.Request(ctx, mcp.MethodResourcesRead, map[string]any{"uri": firstURI}, nil)
		if err == nil {
			e.noteCode([]*client.Response{resp})
			if resp.Msg.Error == nil {
				e.checkResult(mcp.MethodResourcesRead, "resources/read", resp)
			}
		}
	}
	return nil
}

// checkResult applies the message-level rules to one complete result of a
// cacheable method: resultType and cache hints (modern only).
func (e *engine) checkResult(method, subject string, resp *client.Response) {
	if !e.modern || resp == nil || resp.Msg == nil || resp.Msg.Error != nil {
		return
	}
	req := []byte(fmt.Sprintf(`{"method":%q}`, method))
	if id, msg := rules.ResultTypeProblem(rules.ResultTypeMember(resp.Msg.Result)); id != "" {
		e.finding(id, subject, "", method+" result: "+msg, exchange(req, resp, "request body not kept; method shown"))
	}
	if id, msg := rules.CacheHintProblem(resp.Msg.Result); id != "" {
		e.finding(id, subject, "", method+" result: "+msg, exchange(req, resp, "request body not kept; method shown"))
	}
}

// checkScopes: every page of one list carries the same cacheScope (an
// absent scope counts as its own value), as rules.PageScopeProblem
// judges.
func (e *engine) checkScopes(method string, pages []*client.Response) {
	if len(pages) < 2 {
		return
	}
	raw := func(p *client.Response) json.RawMessage {
		var v struct {
			CacheScope json.RawMessage `json:"cacheScope"`
		}
		_ = json.Unmarshal(p.Result(), &v)
		return v.CacheScope
	}
	id := ""
	for _, p := range pages[1:] {
		if id = rules.PageScopeProblem(raw(pages[0]), raw(p)); id != "" {
			break
		}
	}
	if id == "" {
		return
	}
	scopes := map[string][]int{}
	for i, p := range pages {
		h, _ := mcp.CacheHintsOf(p.Result())
		s := "(absent)"
		if h.CacheScope != nil {
			s = *h.CacheScope
		}
		scopes[s] = append(scopes[s], i+1)
	}
	var parts []string
	for _, s := range sortedKeys(scopes) {
		parts = append(parts, fmt.Sprintf("%s on page %v", s, scopes[s]))
	}
	last := pages[len(pages)-1]
	e.finding(id, method, "", method+" pages disagree: "+strings.Join(parts, ", "), exchange(nil, last, "the last page shown"))
}

// noteCode remembers every error code seen, with its first evidence.
func (e *engine) noteCode(resps []*client.Response) {
	for _, r := range resps {
		if r == nil || r.Msg == nil || r.Msg.Error == nil {
			continue
		}
		if _, ok := e.codes[r.Msg.Error.Code]; !ok {
			e.codes[r.Msg.Error.Code] = exchange(nil, r, "request: "+r.Method)
		}
	}
}

func (e *engine) noteExchange(code int64, ex *result.Exchange) {
	if _, ok := e.codes[code]; !ok {
		e.codes[code] = ex
	}
}

// codeFindings judges every error code seen during the run.
func (e *engine) codeFindings() {
	for _, code := range slices.Sorted(maps.Keys(e.codes)) {
		for _, id := range rules.CodeRules(code, e.modern) {
			e.finding(id, fmt.Sprintf("error.%d", code), "", fmt.Sprintf("error code %d was emitted", code), e.codes[code])
		}
	}
}

// versions: every advertised version is served on a fresh connection, and
// the tool set is compared between versions.
func (e *engine) versions(ctx context.Context) {
	if e.discover == nil {
		return
	}
	sets := map[string]string{}
	for _, v := range e.discover.SupportedVersions {
		rev := mcp.Revision(v)
		edit := func(o *client.Options) {
			if rev.Era() == mcp.EraLegacy {
				o.Era, o.LegacyVersion = mcp.EraLegacy, rev
			} else {
				o.Era, o.Version = mcp.EraModern, rev
			}
		}
		fs, err := e.s.Fresh(ctx, edit)
		if err == nil && fs.Client.ProtocolVersion() != v {
			err = fmt.Errorf("asked for %s, the server settled on %s", v, fs.Client.ProtocolVersion())
		}
		if err != nil {
			if fs != nil {
				fs.Close()
			}
			e.finding("compat.version_advertised_unsupported", "discover.supportedVersions."+v, "",
				fmt.Sprintf("server/discover advertises %s, but a fresh connection at %s failed: %s", v, v, oneLine(err.Error())), nil)
			continue
		}
		lr := fs.Client.List(ctx, mcp.MethodToolsList)
		fs.Close()
		if lr.Err != nil {
			e.finding("compat.version_advertised_unsupported", "discover.supportedVersions."+v, "",
				fmt.Sprintf("tools/list at advertised version %s failed: %s", v, lr.Err.Message), nil)
			continue
		}
		sets[v] = strings.Join(toolNames(lr.Pages), ",")
	}
	distinct := map[string]bool{}
	for _, s := range sets {
		distinct[s] = true
	}
	if len(distinct) > 1 {
		var parts []string
		for _, v := range sortedKeys(sets) {
			parts = append(parts, v+": ["+sets[v]+"]")
		}
		e.finding("compat.surface_varies_by_version", "discover.supportedVersions", "", "tool sets differ: "+strings.Join(parts, "; "), nil)
	}
}

// stability lists the tools on two fresh connections with the session's
// own options and compares them with the session's list: a different set
// is compat.set_varies_per_connection; the same set with different
// content while the first list's ttlMs still promised freshness is
// compat.ttl_overpromise.
func (e *engine) stability(ctx context.Context) {
	if len(e.tools) == 0 && len(e.rep.Problems) > 0 {
		return
	}
	if !e.modern {
		// TOOL-LIST-STABLE binds 2026-07-28: a legacy session's tool list
		// may legitimately depend on the session.
		e.notEvaluated("tool-list stability across connections", "TOOL-LIST-STABLE binds 2026-07-28 servers only; this server is "+e.rep.Era)
		return
	}
	start := e.opts.Now()
	var ttl int64 = -1
	base := e.toolsJCS()
	baseNames := strings.Join(e.rep.Tools, ",")
	for i := range 2 {
		fs, err := e.s.Fresh(ctx, nil)
		if err != nil {
			e.problem("fresh connection %d for the stability check: %s", i+1, oneLine(err.Error()))
			return
		}
		lr := fs.Client.List(ctx, mcp.MethodToolsList)
		fs.Close()
		if lr.Err != nil {
			e.problem("tools/list on fresh connection %d: %s", i+1, lr.Err.Message)
			return
		}
		if ttl < 0 && len(lr.Pages) > 0 {
			h, _ := mcp.CacheHintsOf(lr.Pages[0])
			ttl = h.EffectiveTTLMs()
		}
		names := toolNames(lr.Pages)
		slices.Sort(names)
		sorted := slices.Clone(e.rep.Tools)
		slices.Sort(sorted)
		if !slices.Equal(names, sorted) {
			e.finding("compat.set_varies_per_connection", "toolsList", "",
				fmt.Sprintf("fresh connection %d listed [%s], the first listed [%s]", i+1, strings.Join(names, ","), baseNames), nil)
			return
		}
		if got := toolsJCSPages(lr.Pages); got != base && e.modern && ttl > 0 && e.opts.Now().Sub(start).Milliseconds() < ttl {
			e.finding("compat.ttl_overpromise", "toolsList", "",
				fmt.Sprintf("the tool definitions changed on a fresh connection while ttlMs %d still promised the first list fresh", ttl), nil)
			return
		}
	}
}

func (e *engine) toolsJCS() string {
	var raws []json.RawMessage
	for _, t := range e.tools {
		raws = append(raws, t.raw)
	}
	return canonList(raws)
}

func toolsJCSPages(pages []json.RawMessage) string {
	var raws []json.RawMessage
	for _, p := range pages {
		var r struct {
			Tools []json.RawMessage `json:"tools"`
		}
		_ = json.Unmarshal(p, &r)
		raws = append(raws, r.Tools...)
	}
	return canonList(raws)
}

// canonList canonicalises tool definitions as a set (order is another
// rule's business).
func canonList(raws []json.RawMessage) string {
	var keys []string
	for _, r := range raws {
		var v any
		if json.Unmarshal(r, &v) == nil {
			keys = append(keys, snapshot.JCSString(v))
		}
	}
	slices.Sort(keys)
	return strings.Join(keys, "\n")
}

func toolNames(pages []json.RawMessage) []string {
	var out []string
	for _, p := range pages {
		var r struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		_ = json.Unmarshal(p, &r)
		for _, t := range r.Tools {
			out = append(out, t.Name)
		}
	}
	return out
}
