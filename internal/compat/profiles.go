package compat

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/rules"
)

// profileRun is one profile's way to reach the server.
type profileRun struct {
	p rules.Profile
	// sess is the session the profile's calls go on (the one under test for
	// modern profiles: modern requests are stateless and carry their
	// capabilities; a fresh initialize for legacy profiles).
	sess *connect.Session
	// unserved says why the server cannot be used under the profile.
	unserved string
	// side answers the server's requests on a legacy profile's session.
	side *clientSide
}

// profiles replays every probe under every profile and judges it against
// the baseline (the first profile: modern-full when listed).
func (e *engine) profiles(ctx context.Context) {
	if len(e.opts.Profiles) == 0 {
		return
	}
	var runs []*profileRun
	for _, p := range e.opts.Profiles {
		pr := &profileRun{p: p}
		switch {
		case p.Legacy():
			if e.rep.Era == rules.EraModernOnly {
				pr.unserved = "the server is modern-only and turns the initialize handshake away"
				break
			}
			// The profile serves what it declares in initialize (roots,
			// sampling, elicitation); the server's requests and the
			// answers are kept for the evidence.
			pr.side = newClientSide(p)
			fs, err := e.s.Fresh(ctx, func(o *client.Options) {
				o.Era, o.LegacyVersion, o.Capabilities = mcp.EraLegacy, mcp.Revision(p.ProtocolVersion), p.ClientCapabilities()
				o.ServerRequest = pr.side.answer
			})
			if err != nil {
				pr.unserved = "initialize at " + p.ProtocolVersion + " failed: " + oneLine(err.Error())
				break
			}
			defer fs.Close()
			pr.sess = fs
		case !e.modern:
			pr.unserved = "the server does not serve " + p.ProtocolVersion + " (era " + e.rep.Era + ")"
		default:
			pr.sess = e.s
		}
		if pr.unserved != "" {
			e.finding("compat.profile_unserved", "profile."+p.Name, p.Name, pr.unserved, nil)
			e.notEvaluated("profile "+p.Name, pr.unserved)
		}
		runs = append(runs, pr)
	}
	// The baseline is the first served profile.
	var base *profileRun
	for _, r := range runs {
		if r.sess != nil {
			base = r
			break
		}
	}
	if base == nil {
		// Nothing applicable is not a pass: the profiles asked for could
		// not be exercised at all.
		e.problem("no profile could be used (%s): nothing was exercised", strings.Join(e.rep.Profiles, ", "))
		return
	}
	switch {
	case e.opts.ReadOnly:
		e.notEvaluated("degradation (D rules) and the tool × profile verdicts", "--read-only sends no tools/call")
		return
	case len(e.opts.Probes) == 0:
		e.notEvaluated("degradation (D rules) and the tool × profile verdicts", "no probes: compat calls no tool unless --probe names one (a fixture's declared probes are used by default)")
		return
	}
	var serverExt []string
	if e.discover != nil {
		for k := range e.discover.Capabilities.Extensions {
			serverExt = append(serverExt, k)
		}
	}
	baseTools := e.profileTools(ctx, base)
	for _, pb := range e.opts.Probes {
		if e.tool(pb.Tool) == nil && !slices.Contains(baseTools, pb.Tool) {
			e.problem("probe %s: tool %s is not listed by the server", pb.ID, pb.Tool)
			continue
		}
		bo, bex := e.call(ctx, base, pb)
		if bo.Failure != "" {
			e.problem("probe %s under the baseline profile %s: %s", pb.ID, base.p.Name, bo.Failure)
			continue
		}
		bc := rules.BaselineCall{Essence: rules.Essence(bo), Exercised: rules.Exercised(bo.Result)}
		if bo.Error == nil && !base.p.Legacy() {
			// RT-REQUIRED binds modern answers: a legacy profile's result
			// has no resultType, even from a dual-era server.
			e.checkCallResult(pb, base.p.Name, bo, bex)
		}
		if base.p.Legacy() {
			// A legacy baseline is still held to the legacy rules.
			e.judgeCall(pb, base, bc, bo, bex, serverExt)
		} else {
			e.setVerdict(pb.Tool, base.p.Name, rules.VerdictOK)
		}
		for _, r := range runs {
			if r == base {
				continue
			}
			if r.sess == nil {
				e.setVerdict(pb.Tool, r.p.Name, VerdictUnserved)
				continue
			}
			o, ex := e.call(ctx, r, pb)
			e.judgeCall(pb, r, bc, o, ex, serverExt)
		}
	}
}

// profileTools lists the tools a legacy baseline's own session offers: a
// legacy server may list some tools only to a client that declared a
// capability in initialize (server-everything lists get-roots-list only to
// a client with roots), and the session under test declared none.
func (e *engine) profileTools(ctx context.Context, r *profileRun) []string {
	if !r.p.Legacy() || r.sess == nil || r.sess == e.s {
		return nil
	}
	lr := r.sess.Client.List(ctx, mcp.MethodToolsList)
	if lr.Err != nil {
		return nil
	}
	return toolNames(lr.Pages)
}

// VerdictUnserved marks a tool × profile cell that was not exercised: the
// server cannot be used under the profile. It is not a pass.
const VerdictUnserved = "unserved"

// judgeCall applies the decision table to one call and records its verdict,
// findings and any missing evidence.
func (e *engine) judgeCall(pb Probe, r *profileRun, bc rules.BaselineCall, o rules.Outcome, ex *exchangeT, serverExt []string) {
	j := rules.JudgeDegradation(r.p, bc, o, rules.JudgeOptions{
		HeaderAbsentHTTP: r.p.OmitVersionHeader && e.kind == "http",
		ServerExtensions: serverExt,
	})
	e.setVerdict(pb.Tool, r.p.Name, j.Verdict)
	if j.Incomplete != "" {
		e.problem("probe %s: %s", pb.ID, j.Incomplete)
	}
	for _, f := range j.Findings {
		e.finding(f.RuleID, pb.Tool+"@"+r.p.Name, r.p.Name, "probe "+pb.ID+": "+f.Message, ex)
	}
}

// checkCallResult applies the message rules to a baseline tools/call
// result of a modern server.
func (e *engine) checkCallResult(pb Probe, profile string, o rules.Outcome, ex *exchangeT) {
	if !e.modern {
		return
	}
	if id, msg := rules.ResultTypeProblem(rules.ResultTypeMember(o.Result)); id != "" {
		e.finding(id, "probe."+pb.ID, profile, "tools/call "+pb.Tool+" result: "+msg, ex)
	}
}

// call sends one probe under one profile.
func (e *engine) call(ctx context.Context, r *profileRun, pb Probe) (rules.Outcome, *exchangeT) {
	a := pb.Arguments
	if len(a) == 0 {
		a = json.RawMessage(`{}`)
	}
	q := rawReq{method: mcp.MethodToolsCall, params: map[string]any{"name": pb.Tool, "arguments": a}, paramHeaders: true, sess: r.sess}
	if r.p.Legacy() {
		q.noDefaults, q.legacy = true, true
		q.header = map[string][]string{"Mcp-Protocol-Version": {r.sess.Client.ProtocolVersion()}}
		if r.sess.Client.ProtocolVersion() < "2025-06-18" {
			q.header = nil
		}
	} else {
		q.meta, q.version, q.caps = true, r.p.ProtocolVersion, r.p.ClientCapabilities()
		if r.p.OmitVersionHeader {
			q.header = map[string][]string{"Mcp-Protocol-Version": nil}
		}
	}
	resp := e.send(ctx, q)
	var served []string
	if r.side != nil {
		if resp.ex == nil {
			resp.ex = &exchangeT{}
		}
		resp.ex.ServerRequests = r.side.take()
		served = methods(resp.ex.ServerRequests)
	}
	o, ex := outcome(resp)
	o.ServerRequests = served
	return o, ex
}

// outcome reads a probe's answer.
func outcome(resp rawResp) (rules.Outcome, *exchangeT) {
	switch {
	case resp.reply == nil || resp.reply.Response == nil:
		why := "no JSON-RPC answer"
		if resp.err != nil {
			why = oneLine(resp.err.Error())
		} else if resp.status() != 0 {
			why = fmt.Sprintf("HTTP %d without a JSON-RPC response", resp.status())
			if er := resp.rpcError(); er != nil {
				return rules.Outcome{Error: &rules.OutcomeError{Code: er.Code, Message: er.Message, Data: er.Data}}, resp.ex
			}
		}
		return rules.Outcome{Failure: why}, resp.ex
	case resp.reply.Response.Error != nil:
		er := resp.reply.Response.Error
		return rules.Outcome{Error: &rules.OutcomeError{Code: er.Code, Message: er.Message, Data: er.Data}}, resp.ex
	}
	return rules.Outcome{Result: resp.reply.Response.Result}, resp.ex
}

func (e *engine) setVerdict(tool, profile, v string) {
	m := e.rep.Verdicts[tool]
	if m == nil {
		m = map[string]string{}
		e.rep.Verdicts[tool] = m
	}
	if v == VerdictUnserved {
		m[profile] = v
		return
	}
	m[profile] = rules.WorseVerdict(m[profile], v)
}
