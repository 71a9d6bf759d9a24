// Package probe observes a connected MCP server's surface: it lists tools
// (three times, to judge order stability), resources, resource templates
// and prompts to the end of every page, reads a server manifest resource if
// one is listed, runs declared tools/call probes, and gathers it all, raw,
// as [snapshot.Evidence] for the pure snapshot builder.
package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// A Probe is one declared tools/call: the one probe type,
// snapshot.ProbeDecl.
type Probe = snapshot.ProbeDecl

// Options configure an observation.
type Options struct {
	// Now stamps the evidence.
	Now func() time.Time
	// Repeats is how many complete tools/list enumerations to make in all
	// (default 3): repeats that disagree mark the order unstable.
	Repeats int
	// Probes are run in order after the lists.
	Probes []Probe
	// SkipManifest leaves the manifest resource unread.
	SkipManifest bool
	// DualEraCheck opens a fresh session to a modern server that starts
	// with initialize, to learn whether it also speaks the legacy era. A
	// fresh session is needed because servers may accept initialize only as
	// the first message of a stdio process.
	DualEraCheck bool
	// SkipVersionProbe leaves a legacy server's supported versions at the
	// negotiated one instead of trying every known legacy revision on
	// fresh connections.
	SkipVersionProbe bool
	// Progress, if set, is told what is being listed.
	Progress func(step string)
}

// Observe gathers the evidence of one server's surface. Section failures
// are recorded in the evidence (the surface is then partial); only a
// failure to talk to the server at all is returned as an error.
func Observe(ctx context.Context, s *connect.Session, opts *Options) (*snapshot.Evidence, error) {
	if opts == nil {
		opts = &Options{}
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	repeats := opts.Repeats
	if repeats <= 0 {
		repeats = 3
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	c := s.Client
	hs := s.Handshake
	co := c.Options()
	ev := &snapshot.Evidence{
		RecordedAt:         now().UTC(),
		Target:             s.Spec.Info(),
		Era:                string(hs.Era),
		ProtocolVersion:    hs.Version,
		ClientCapabilities: co.Capabilities,
	}
	if ci, err := json.Marshal(co.ClientInfo); err == nil {
		ev.ClientInfo = ci
	}
	if s.Conn.Kind() == "sse" {
		ev.Target.Transport = "sse"
	}
	if hs.Discover != nil && hs.Discover.Msg != nil {
		switch {
		case hs.Discover.Msg.Error == nil && hs.Era == mcp.EraLegacy:
			// A DiscoverResult listing only legacy versions led to the
			// legacy handshake: the surface is the initialize one, and the
			// era_detection notes keep what discover said.
		case hs.Discover.Msg.Error == nil:
			ev.Discover = hs.Discover.Msg.Result
		default:
			e := hs.Discover.Msg.Error
			ev.DiscoverError = &snapshot.SectionError{Kind: "error", Code: int(e.Code), Message: e.Message, HTTPStatus: hs.Discover.HTTPStatus()}
		}
	} else if hs.DiscoverFailure != nil {
		ev.DiscoverError = sectionErr(hs.DiscoverFailure)
	}
	if hs.Initialize != nil && hs.Initialize.Msg != nil && hs.Initialize.Msg.Error == nil {
		ev.Initialize = hs.Initialize.Msg.Result
	}
	for _, step := range hs.Steps {
		ev.Notes = append(ev.Notes, snapshot.Note{Kind: "prober", Rule: "era_detection", Snippet: step})
	}

	caps := serverCapabilities(ev)
	progress("tools/list")
	ev.Tools = list(ctx, c, mcp.MethodToolsList, true)
	for i := 1; i < repeats && ev.Tools.Complete(); i++ {
		ev.ToolsRepeats = append(ev.ToolsRepeats, list(ctx, c, mcp.MethodToolsList, true))
	}
	progress("resources/list")
	ev.Resources = list(ctx, c, mcp.MethodResourcesList, caps.has("resources"))
	ev.ResourceTemplates = list(ctx, c, mcp.MethodResourcesTemplatesList, caps.has("resources"))
	progress("prompts/list")
	ev.Prompts = list(ctx, c, mcp.MethodPromptsList, caps.has("prompts"))

	if !opts.SkipManifest {
		if uri := manifestURI(ev.Resources.Pages); uri != "" {
			progress("manifest")
			ev.Manifest = readManifest(ctx, c, uri)
		}
	}
	for _, p := range opts.Probes {
		progress("tools/call " + p.ID)
		ev.Probes = append(ev.Probes, runProbe(ctx, c, p))
	}
	if hs.Era == mcp.EraLegacy && !opts.SkipVersionProbe {
		progress("legacy versions")
		var notes []string
		ev.LegacyVersions, ev.VersionsProbed, notes = legacyVersions(ctx, s)
		for _, n := range notes {
			ev.Notes = append(ev.Notes, snapshot.Note{Kind: "prober", Rule: "version_probe", Snippet: n})
		}
	}
	if opts.DualEraCheck && hs.Era == mcp.EraModern {
		progress("dual-era check")
		ev.DualEra, ev.DualEraVersions = dualEra(ctx, s)
	}
	if s.Stderr != nil {
		ev.Stderr = string(s.Stderr())
	}
	return ev, nil
}

func list(ctx context.Context, c *client.Client, method string, attempt bool) snapshot.ListEvidence {
	if !attempt {
		return snapshot.ListEvidence{}
	}
	lr := c.List(ctx, method)
	return snapshot.ListEvidence{Attempted: true, Pages: lr.Pages, Err: lr.Err}
}

type capSet map[string]json.RawMessage

func (c capSet) has(name string) bool { _, ok := c[name]; return ok }

// serverCapabilities reads the capabilities from discover or initialize.
func serverCapabilities(ev *snapshot.Evidence) capSet {
	raw := ev.Discover
	if raw == nil {
		raw = ev.Initialize
	}
	var r struct {
		Capabilities capSet `json:"capabilities"`
	}
	_ = json.Unmarshal(raw, &r)
	if r.Capabilities == nil {
		return capSet{}
	}
	return r.Capabilities
}

// manifestURI finds the first listed resource whose URI ends with
// "://mcp/manifest" (surfaceprint §5.2).
func manifestURI(pages []json.RawMessage) string {
	for _, p := range pages {
		var r struct {
			Resources []struct {
				URI string `json:"uri"`
			} `json:"resources"`
		}
		if json.Unmarshal(p, &r) != nil {
			continue
		}
		for _, res := range r.Resources {
			if strings.HasSuffix(res.URI, "://mcp/manifest") {
				return res.URI
			}
		}
	}
	return ""
}

func readManifest(ctx context.Context, c *client.Client, uri string) *snapshot.ManifestEvidence {
	me := &snapshot.ManifestEvidence{URI: uri}
	resp, err := c.Request(ctx, mcp.MethodResourcesRead, map[string]any{"uri": uri}, nil)
	if err != nil {
		me.Err = sectionErr(err)
		return me
	}
	if e := resp.Msg.Error; e != nil {
		me.Err = &snapshot.SectionError{Kind: "error", Code: int(e.Code), Message: e.Message}
		return me
	}
	var r struct {
		Contents []struct {
			Text string `json:"text"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(resp.Msg.Result, &r); err != nil {
		me.Err = &snapshot.SectionError{Kind: "malformed", Message: "resources/read result is not an object"}
		return me
	}
	if len(r.Contents) > 0 {
		me.Text = r.Contents[0].Text
	}
	return me
}

func runProbe(ctx context.Context, c *client.Client, p Probe) snapshot.ProbeEvidence {
	args := p.Arguments
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	pe := snapshot.ProbeEvidence{ID: p.ID, Tool: p.Tool, Capture: p.Capture, Arguments: args}
	resp, err := c.Request(ctx, mcp.MethodToolsCall, map[string]any{"name": p.Tool, "arguments": args}, nil)
	if resp != nil && resp.Reply != nil && resp.Reply.HTTP != nil {
		pe.HTTPStatus, pe.ContentType = resp.Reply.HTTP.Status, resp.Reply.HTTP.ContentType
	}
	if err != nil {
		pe.Failure = sectionErr(err)
		return pe
	}
	if resp.Msg.Error != nil {
		b, _ := json.Marshal(resp.Msg.Error)
		pe.Error = b
		return pe
	}
	pe.Result = resp.Msg.Result
	return pe
}

// dualEra asks a modern server for the legacy handshake on a fresh
// session. A successful initialize means the server speaks both eras.
func dualEra(ctx context.Context, s *connect.Session) (bool, []string) {
	fresh, err := s.Fresh(ctx, func(o *client.Options) { o.Era = mcp.EraLegacy })
	if err != nil {
		return false, nil
	}
	defer fresh.Close()
	if fresh.Handshake.Era != mcp.EraLegacy {
		return false, nil
	}
	// Which legacy revisions it serves, as for a legacy server.
	versions, _, _ := legacyVersions(ctx, fresh)
	return true, versions
}

// legacyVersions learns which legacy revisions a legacy server accepts.
// An InitializeResult names one version: the requested one if the server
// supports it (it MUST echo it, DIGEST §11), else another it supports. So
// the session's own handshake proves one version, and one initialize per
// other known legacy revision, each on a fresh connection with the normal
// request timeout, proves or rules out the rest (at most three more
// connections; a version a server offers instead counts as proven too). complete is false when an attempt got no answer; the
// versions then hold what was proven, and notes say what failed.
func legacyVersions(ctx context.Context, s *connect.Session) (versions []string, complete bool, notes []string) {
	seen := map[string]bool{}
	if v := s.Handshake.Version; v != "" {
		seen[v] = true
	}
	var todo []mcp.Revision
	for _, r := range mcp.Revisions {
		if r.Era() == mcp.EraLegacy && !seen[string(r)] {
			todo = append(todo, r)
		}
	}
	// The attempts run side by side: a stdio server that lingers after
	// stdin closes costs one shutdown grace period, not three.
	type outcome struct {
		got string
		err error
	}
	out := make([]outcome, len(todo))
	var wg sync.WaitGroup
	for i, r := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fresh, err := s.Fresh(ctx, func(o *client.Options) { o.Era, o.LegacyVersion = mcp.EraLegacy, r })
			if err != nil {
				out[i].err = err
				return
			}
			out[i].got = fresh.Handshake.Version
			fresh.Close()
		}()
	}
	wg.Wait()
	complete = true
	for i, o := range out {
		switch {
		case o.err != nil:
			complete = false
			notes = append(notes, fmt.Sprintf("initialize %s on a fresh connection: %v", todo[i], o.err))
		case o.got != "":
			seen[o.got] = true
		}
	}
	for v := range seen {
		versions = append(versions, v)
	}
	slices.Sort(versions)
	return versions, complete, notes
}

func sectionErr(err error) *snapshot.SectionError {
	return client.SectionError(err)
}
