package diff

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/snapshot"
)

type differ struct {
	out []Finding
	dec *snapshot.ToolDecoder // for the tools held raw (snapshot.UnmarshalLazy)
	// uo and un are what each side did not capture (nil for snapshots
	// mcpward records); first counts what was left out for that reason.
	uo, un uncaptured
	first  map[string]int
}

func (d *differ) add(rule, subject, msg string, before, after any) {
	tier := Risky // unknown ids cannot happen: TestRulesUsedAreCatalogued
	if r, ok := ruleByID[rule]; ok {
		tier = r.Tier
	}
	d.out = append(d.out, Finding{RuleID: rule, Tier: tier, Subject: subject, Message: msg, Before: before, After: after})
}

// Diff compares old and new and returns every finding, sorted by tier
// (highest first), rule id and subject. It never fails: values it cannot
// classify are reported by a catch-all rule.
//
// A part of the surface that one side's snapshot never captured
// (snapshot.Observation.Uncaptured: a snapshot converted from another
// tool) and that side does not hold is not compared; [DiffReport] names
// what was left out.
func Diff(old, new *snapshot.Snapshot) []Finding {
	d := newDiffer(old, new)
	d.run(old, new)
	return d.out
}

func newDiffer(old, new *snapshot.Snapshot) *differ {
	return &differ{
		dec: &snapshot.ToolDecoder{},
		uo:  parseUncaptured(old.Observation.Uncaptured),
		un:  parseUncaptured(new.Observation.Uncaptured),
	}
}

func (d *differ) run(old, new *snapshot.Snapshot) {
	o, n := &old.Surface, &new.Surface
	d.discover(o.Discover, n.Discover, old.VersionsComplete(), new.VersionsComplete())
	d.tools(o, n)
	d.toolsList(o.ToolsList, n.ToolsList)
	d.listInfo("resourcesList", o.ResourcesList, n.ResourcesList)
	d.listInfo("resourceTemplatesList", o.ResourceTemplatesList, n.ResourceTemplatesList)
	d.listInfo("promptsList", o.PromptsList, n.PromptsList)
	d.resources("resources", "uri", "resource", o.Resources, n.Resources, listPages(o.ResourcesList), listPages(n.ResourcesList))
	d.resources("resourceTemplates", "uriTemplate", "resourceTemplate", o.ResourceTemplates, n.ResourceTemplates, listPages(o.ResourceTemplatesList), listPages(n.ResourceTemplatesList))
	d.prompts(o.Prompts, n.Prompts, listPages(o.PromptsList), listPages(n.PromptsList))
	d.manifest(o.Manifest, n.Manifest)
	d.behavior(o.Behavior, n.Behavior, explainedBySchema(o, n, d.dec))
	sortFindings(d.out)
}

// jeq compares two tree values by their JCS form (1 and 1.0 are equal, key
// order is irrelevant), so diff and digest agree.
func jeq(a, b any) bool {
	if treeEqual(a, b) {
		return true
	}
	// Two valid UTF-8 strings have the same JCS form only when they are
	// the same string (and they already were not); enum values are
	// compared pairwise, so this saves a canonicalisation per pair.
	if as, ok := a.(string); ok {
		if bs, ok := b.(string); ok && utf8.ValidString(as) && utf8.ValidString(bs) {
			return false
		}
	}
	return snapshot.JCSString(a) == snapshot.JCSString(b)
}

// treeEqual is reflect.DeepEqual for tree values (see [snapshot.Object]),
// without reflection for the kinds a decoded snapshot holds; other kinds
// go to reflect.DeepEqual.
func treeEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !treeEqual(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !treeEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func stripWS(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// text reports a change of a routed-on text field: whitespace-only changes
// are cosmetic, any other change (including absent ↔ present) uses rule.
func (d *differ) text(rule, subject, what string, a, b any) {
	as, aok := a.(string)
	bs, bok := b.(string)
	if aok == bok && as == bs && (aok || jeq(a, b)) {
		return
	}
	if stripWS(as) == stripWS(bs) && aok && bok {
		d.add("text.whitespace-only", subject, what+" changed in whitespace only", a, b)
		return
	}
	d.add(rule, subject, what+" changed — the trigger surface a model routes on", a, b)
}

// discover compares the self-descriptions. A version missing from a list
// means "unsupported" only when that list is complete (the server's own,
// or learned by trying every known revision): version.dropped needs the
// new list complete, version.added the old one. A legacy snapshot that
// holds only the negotiated version proves nothing about the others (each
// version it does list was accepted, so it may still be the old side of a
// version.dropped).
func (d *differ) discover(o, n *snapshot.Discover, oComplete, nComplete bool) {
	if o == nil || n == nil {
		return
	}
	ov, nv := setOf(o.SupportedVersions), setOf(n.SupportedVersions)
	for _, v := range o.SupportedVersions {
		if !nv[v] && nComplete {
			d.add("version.dropped", "discover.supportedVersions."+v, fmt.Sprintf("protocol version %s is no longer supported — clients pinned to it cannot connect", v), v, nil)
		}
	}
	for _, v := range n.SupportedVersions {
		if !ov[v] && oComplete {
			d.add("version.added", "discover.supportedVersions."+v, fmt.Sprintf("protocol version %s is now supported", v), nil, v)
		}
	}
	ocaps, ncaps := d.strip([]string{"discover", "capabilities"}, "discover.capabilities", o.Capabilities, n.Capabilities)
	for _, k := range keysUnion(ocaps, ncaps) {
		a, aok := ocaps[k]
		b, bok := ncaps[k]
		subj := "discover.capabilities." + k
		switch {
		case aok && !bok:
			d.add("capability.removed", subj, fmt.Sprintf("capability %q was removed", k), a, nil)
		case !aok && bok:
			d.add("capability.added", subj, fmt.Sprintf("capability %q was added", k), nil, b)
		default:
			d.capability([]string{"discover", "capabilities", k}, subj, a, b)
		}
	}
	oinfo, ninfo := d.strip([]string{"discover", "serverInfo"}, "discover.serverInfo", o.ServerInfo, n.ServerInfo)
	for _, k := range keysUnion(oinfo, ninfo) {
		a, b := oinfo[k], ninfo[k]
		if jeq(a, b) {
			continue
		}
		switch k {
		case "name":
			d.add("serverInfo.name.changed", "discover.serverInfo.name", "serverInfo.name changed — a different server may be answering", a, b)
		case "version":
			d.add("serverInfo.version.changed", "discover.serverInfo.version", "serverInfo.version changed", a, b)
		default:
			d.add("serverInfo.changed", "discover.serverInfo."+k, "serverInfo."+k+" changed", a, b)
		}
	}
	oinst, ninst := strPtr(o.Instructions), strPtr(n.Instructions)
	if d.uncapturedOnly(oinst != nil, ninst != nil, "discover", "instructions") {
		oinst, ninst = nil, nil
	}
	d.text("instructions.changed", "discover.instructions", "instructions", oinst, ninst)
	if o.ProtocolVersion != n.ProtocolVersion {
		d.add("discover.protocolVersion.changed", "discover.protocolVersion", "negotiated protocol version changed", o.ProtocolVersion, n.ProtocolVersion)
	}
	ottl, nttl, oscope, nscope := o.TTLMs, n.TTLMs, o.CacheScope, n.CacheScope
	if d.uncapturedOnly(ottl != nil, nttl != nil, "discover", "ttlMs") {
		ottl, nttl = nil, nil
	}
	if d.uncapturedOnly(oscope != "", nscope != "", "discover", "cacheScope") {
		oscope, nscope = "", ""
	}
	d.cache("discover", ottl, nttl, oscope, nscope)
}

func strPtr(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// capability walks inside one capability present on both sides; path is
// subj's keys.
func (d *differ) capability(path []string, subj string, a, b any) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		if !jeq(a, b) {
			d.add("capability.feature.changed", subj, subj[len("discover.capabilities."):]+" changed", a, b)
		}
		return
	}
	am, bm = d.strip(path, subj, am, bm)
	for _, k := range keysUnion(am, bm) {
		av, aok := am[k]
		bv, bok := bm[k]
		s := subj + "." + k
		switch {
		case aok && !bok:
			d.add("capability.feature.removed", s, s[len("discover.capabilities."):]+" was removed", av, nil)
		case !aok && bok:
			d.add("capability.feature.added", s, s[len("discover.capabilities."):]+" was added", nil, bv)
		default:
			var sub []string // its keys matter only to an uncaptured list
			if d.anyUncaptured() {
				sub = append(slices.Clip(path), k)
			}
			d.capability(sub, s, av, bv)
		}
	}
}

func num(p *json.Number) (float64, bool) {
	if p == nil {
		return 0, false
	}
	f, err := p.Float64()
	return f, err == nil
}

func numAny(p *json.Number) any {
	if p == nil {
		return nil
	}
	return *p
}

func (d *differ) cache(prefix string, ot, nt *json.Number, os, ns string) {
	if a, aok := num(ot); aok {
		if b, bok := num(nt); bok && a != b {
			if b > a {
				d.add("ttlMs.raised", prefix+".ttlMs", "ttlMs was raised — clients keep a stale surface longer", numAny(ot), numAny(nt))
			} else {
				d.add("ttlMs.lowered", prefix+".ttlMs", "ttlMs was lowered", numAny(ot), numAny(nt))
			}
		}
	}
	switch {
	case os == ns:
	case os == "private" && ns == "public":
		d.add("cacheScope.widened", prefix+".cacheScope", "cacheScope widened from private to public — shared caches may now serve it", os, ns)
	case os == "public" && ns == "private":
		d.add("cacheScope.narrowed", prefix+".cacheScope", "cacheScope narrowed from public to private", os, ns)
	default:
		d.add("cacheScope.changed", prefix+".cacheScope", fmt.Sprintf("cacheScope changed from %q to %q", os, ns), os, ns)
	}
}

func (d *differ) listInfo(prefix string, o, n *snapshot.ListInfo) {
	if o == nil || n == nil {
		return
	}
	d.cache(prefix, o.TTLMs, n.TTLMs, o.CacheScope, n.CacheScope)
}

func (d *differ) toolsList(o, n *snapshot.ToolsList) {
	if o == nil || n == nil {
		return
	}
	d.cache("toolsList", o.TTLMs, n.TTLMs, o.CacheScope, n.CacheScope)
	if !n.OrderStable {
		d.add("order.nondeterministic", "toolsList.order", "tools/list order differs between repeated enumerations", nil, strings.Join(n.Order, ","))
		return
	}
	if o.OrderStable && !slices.Equal(o.Order, n.Order) && sameSet(o.Order, n.Order) {
		d.add("order.changed", "toolsList.order", "tools/list order changed", strings.Join(o.Order, ","), strings.Join(n.Order, ","))
	}
}

func setOf(ss []string) map[string]bool {
	m := make(map[string]bool, len(ss))
	for _, s := range ss {
		m[s] = true
	}
	return m
}

func sameSet(a, b []string) bool {
	as, bs := setOf(a), setOf(b)
	if len(as) != len(bs) {
		return false
	}
	for k := range as {
		if !bs[k] {
			return false
		}
	}
	return true
}

func keysUnion(a, b map[string]any) []string {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := make([]string, 0, len(a)+len(b))
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func index(items []snapshot.Object, key string) (map[string]snapshot.Object, []string) {
	m := make(map[string]snapshot.Object, len(items))
	var ids []string
	for _, it := range items {
		id := snapshot.Str(it, key)
		if _, dup := m[id]; !dup {
			ids = append(ids, id)
		}
		m[id] = it
	}
	slices.Sort(ids)
	return m, ids
}

// valueKey names an enum value in a subject: strings as themselves, other
// values by their JCS form.
func valueKey(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return snapshot.JCSString(v)
}

func quoteVal(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return snapshot.JCSString(v)
}
