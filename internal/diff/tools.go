package diff

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/heuristic"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// handledToolFields are compared by dedicated rules; every other field goes
// to tool.field.changed.
var handledToolFields = map[string]bool{
	"name": true, "title": true, "description": true, "inputSchema": true, "outputSchema": true,
	"annotations": true, "icons": true, "_meta": true, "xmcpHeaders": true,
}

func (d *differ) tools(o, n *snapshot.Surface) {
	ot, nt := toolsOf(o, d.dec), toolsOf(n, d.dec)
	var removed, added []*toolRef
	for i, t := range ot.list {
		if nt.find(t.name) == nil && !d.unpaged("tools", d.un, toolsPages(o.ToolsList)) {
			removed = append(removed, &ot.list[i])
		}
	}
	for i, t := range nt.list {
		if ot.find(t.name) == nil && !d.unpaged("tools", d.uo, toolsPages(n.ToolsList)) {
			added = append(added, &nt.list[i])
		}
	}
	renamed := renames(removed, added)
	for _, t := range removed {
		if b, ok := renamed[t]; ok {
			d.add("tool.renamed", "tools."+t.name, fmt.Sprintf("tool %q was renamed to %q (%s) — a client calling the old name will fail", t.name, b.name, renameBasis(t, b)), t.name, b.name)
			d.tool(b.name, t.object(), b.object())
			continue
		}
		d.add("tool.removed", "tools."+t.name, fmt.Sprintf("tool %q was removed — a client holding the old contract will fail", t.name), nil, nil)
	}
	paired := map[*toolRef]bool{}
	for _, b := range renamed {
		paired[b] = true
	}
	for _, t := range added {
		if !paired[t] {
			d.add("tool.added", "tools."+t.name, fmt.Sprintf("tool %q was added — the action surface grew", t.name), nil, nil)
		}
	}
	for _, a := range ot.list {
		b := nt.find(a.name)
		if b == nil || (a.raw != nil && b.raw != nil && bytes.Equal(a.raw, b.raw)) {
			// Equal bytes decode to equal trees: most tools of a large
			// surface read from two files are not decoded at all.
			continue
		}
		if a.raw != nil && b.raw != nil && a.obj == nil && b.obj == nil {
			// Both held raw: the new tree shares the parts that did not
			// change with the old one.
			o, n, err := d.dec.DecodePair(snapshot.RawTool{Name: a.name, JSON: a.raw}, snapshot.RawTool{Name: b.name, JSON: b.raw})
			if err != nil {
				panic(fmt.Sprintf("diff: tool %q held raw does not decode: %v", a.name, err))
			}
			a.obj, b.obj = o, n
		}
		d.tool(a.name, a.object(), b.object())
	}
}

// A toolRef is one tool of a surface: decoded, or held as its bytes in
// the file (snapshot.RawTool) until a comparison needs its tree.
type toolRef struct {
	name string
	raw  []byte
	obj  snapshot.Object
	dec  *snapshot.ToolDecoder // shared by the tools of one diff
}

func (t *toolRef) object() snapshot.Object {
	if t.obj == nil && t.raw != nil {
		o, err := t.dec.Decode(snapshot.RawTool{Name: t.name, JSON: t.raw})
		if err != nil {
			// UnmarshalLazy keeps only tools it has checked decode.
			panic(fmt.Sprintf("diff: tool %q held raw does not decode: %v", t.name, err))
		}
		t.obj = o
	}
	return t.obj
}

// toolSet is a surface's tools sorted by name, one per name (the last of
// a repeated name, as an index by name keeps).
type toolSet struct {
	list []toolRef
}

func toolsOf(s *snapshot.Surface, dec *snapshot.ToolDecoder) *toolSet {
	var list []toolRef
	if raw := s.RawTools(); raw != nil {
		list = make([]toolRef, len(raw))
		for i, t := range raw {
			list[i] = toolRef{name: t.Name, raw: t.JSON, dec: dec}
		}
	} else {
		list = make([]toolRef, len(s.Tools))
		for i, t := range s.Tools {
			list[i] = toolRef{name: snapshot.Str(t, "name"), obj: t}
		}
	}
	if !slices.IsSortedFunc(list, func(a, b toolRef) int { return strings.Compare(a.name, b.name) }) {
		slices.SortStableFunc(list, func(a, b toolRef) int { return strings.Compare(a.name, b.name) })
	}
	// Keep the last of each name.
	out := list[:0]
	for i := range list {
		if i+1 < len(list) && list[i+1].name == list[i].name {
			continue
		}
		out = append(out, list[i])
	}
	return &toolSet{list: out}
}

// find returns the tool named name, or nil.
func (s *toolSet) find(name string) *toolRef {
	i, ok := slices.BinarySearchFunc(s.list, name, func(t toolRef, name string) int { return strings.Compare(t.name, name) })
	if !ok {
		return nil
	}
	return &s.list[i]
}

func (d *differ) tool(name string, o, n snapshot.Object) {
	if treeEqual(o, n) {
		// Most tools of a large surface are unchanged, and no rule finds
		// anything between equal trees.
		return
	}
	o, n = d.strip([]string{"tools", name}, "tools.*", o, n)
	p := "tools." + name
	d.text("tool.description.changed", p+".description", "description", o["description"], n["description"])
	d.text("tool.title.changed", p+".title", "title", o["title"], n["title"])
	if !jeq(o["icons"], n["icons"]) {
		d.add("tool.icons.changed", p+".icons", "icons changed", o["icons"], n["icons"])
	}
	if !jeq(o["_meta"], n["_meta"]) {
		d.add("_meta.vendor.changed", p+"._meta", "_meta changed", o["_meta"], n["_meta"])
	}
	d.annotations(p, o["annotations"], n["annotations"])

	oi, _ := o["inputSchema"].(map[string]any)
	ni, _ := n["inputSchema"].(map[string]any)
	d.schema(false, p+".inputSchema", oi, ni)
	d.headers(p, oi, ni)
	d.headerValidity(p, o["xmcpHeaders"], n["xmcpHeaders"])

	oo, ook := o["outputSchema"].(map[string]any)
	no, nok := n["outputSchema"].(map[string]any)
	switch {
	case ook && nok:
		d.schema(true, p+".outputSchema", oo, no)
	case ook:
		d.add("tool.output.schema.removed", p+".outputSchema", "outputSchema was removed — structured output is no longer promised", oo, nil)
	case nok:
		d.add("tool.output.schema.added", p+".outputSchema", "outputSchema was added", nil, no)
	}
	for _, k := range keysUnion(o, n) {
		if handledToolFields[k] || jeq(o[k], n[k]) {
			continue
		}
		d.add("tool.field.changed", p+"."+k, k+" changed", o[k], n[k])
	}
}

// action adds, beside the finding base for a new value, input or
// operation, the heuristic's reading of its name when that names a
// destructive (base+"_destructive") or other state-changing action
// (base+"_write"): snapgauge's tier for base is kept, and the new action
// behind an unchanged tool name is not passed at the default gate.
func (d *differ) action(base, subject, what string, a heuristic.Action, verb string, after any) {
	if !a.Changes() {
		return
	}
	rule := base + "_write"
	if a.Risk() == heuristic.Destructive {
		rule = base + "_destructive"
	}
	d.add(rule, subject, fmt.Sprintf("%s reads as %s (heuristic: the verb %q) — a new action behind an unchanged tool name", what, a.Reads(), verb), nil, after)
}

func isTrue(m map[string]any, k string) bool {
	b, ok := m[k].(bool)
	return ok && b
}

func (d *differ) annotations(p string, oa, na any) {
	o, _ := oa.(map[string]any)
	n, _ := na.(map[string]any)
	s := p + ".annotations."
	ro, rn := isTrue(o, "readOnlyHint"), isTrue(n, "readOnlyHint")
	switch {
	case ro && !rn:
		d.add("annotation.readOnlyHint.revoked", s+"readOnlyHint", "readOnlyHint was revoked — the tool may now write", true, n["readOnlyHint"])
	case !ro && rn:
		d.add("annotation.readOnlyHint.relaxed", s+"readOnlyHint", "readOnlyHint became true — clients may auto-approve it", o["readOnlyHint"], true)
	}
	do, dn := isTrue(o, "destructiveHint"), isTrue(n, "destructiveHint")
	switch {
	case !do && dn:
		d.add("annotation.destructiveHint.raised", s+"destructiveHint", "destructiveHint became true — the tool may now destroy data", o["destructiveHint"], true)
	case do && !dn:
		d.add("annotation.destructiveHint.relaxed", s+"destructiveHint", "destructiveHint is no longer true — clients may stop asking before calling it", true, n["destructiveHint"])
	}
	io, in := isTrue(o, "idempotentHint"), isTrue(n, "idempotentHint")
	switch {
	case io && !in:
		d.add("annotation.idempotentHint.revoked", s+"idempotentHint", "idempotentHint was revoked — retries are no longer safe", true, n["idempotentHint"])
	case !io && in:
		d.add("annotation.idempotentHint.relaxed", s+"idempotentHint", "idempotentHint became true — clients may retry automatically", o["idempotentHint"], true)
	}
	wo, wn := isTrue(o, "openWorldHint"), isTrue(n, "openWorldHint")
	switch {
	case !wo && wn:
		d.add("annotation.openWorldHint.raised", s+"openWorldHint", "openWorldHint became true — the tool reaches outside systems", o["openWorldHint"], true)
	case wo && !wn:
		d.add("annotation.openWorldHint.lowered", s+"openWorldHint", "openWorldHint is no longer true", true, n["openWorldHint"])
	}
	hints := map[string]bool{"readOnlyHint": true, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true}
	for _, k := range keysUnion(o, n) {
		if hints[k] {
			// Values other than true mean the same as absent.
			continue
		}
		if !jeq(o[k], n[k]) {
			d.add("annotation.other.changed", s+k, "annotation "+k+" changed", o[k], n[k])
		}
	}
}

// schemaHandled are the keywords the walk classifies; any other keyword
// change at a node is reported by the catch-all rule.
var schemaHandled = map[string]bool{"properties": true, "required": true, "type": true, "enum": true, "x-mcp-header": true}

// schema walks two schemas in parallel, recursing only through properties
// present on both sides (snapgauge's walk).
func (d *differ) schema(output bool, path string, o, n map[string]any) {
	pick := func(in, out string) string {
		if output {
			return out
		}
		return in
	}
	d.types(output, path, o, n)
	d.enums(output, path, o, n, pick)
	oreq, nreq := stringSet(o["required"]), stringSet(n["required"])
	for _, r := range sortedKeysB(nreq) {
		if !oreq[r] {
			if output {
				d.add("tool.output.required.added", path+".required."+r, fmt.Sprintf("output %q is now required", r), nil, r)
			} else {
				d.add("tool.input.required.added", path+".required."+r, fmt.Sprintf("input %q is now required — a client recorded against the old contract does not send it", r), nil, r)
			}
		}
	}
	for _, r := range sortedKeysB(oreq) {
		if !nreq[r] {
			if output {
				d.add("tool.output.required.removed", path+".required."+r, fmt.Sprintf("output %q is no longer guaranteed — a client that reads it may get nothing", r), r, nil)
			} else {
				d.add("required.removed", path+".required."+r, fmt.Sprintf("input %q is no longer required", r), r, nil)
			}
		}
	}
	oprops, _ := o["properties"].(map[string]any)
	nprops, _ := n["properties"].(map[string]any)
	for _, k := range keysUnion(oprops, nprops) {
		ov, oin := oprops[k]
		nv, nin := nprops[k]
		ps := path + ".properties." + k
		switch {
		case !oin && nin:
			if output {
				d.add("tool.output.property.added", ps, fmt.Sprintf("output %q was added", k), nil, nv)
			} else if !nreq[k] {
				d.add("tool.input.optional.added", ps, fmt.Sprintf("optional input %q was added", k), nil, nv)
				nm, _ := nv.(map[string]any)
				a, verb := heuristic.ReadProperty(k, snapshot.Str(nm, "description"))
				d.action("tool.input.optional.added", ps, fmt.Sprintf("new optional input %q", k), a, verb, nv)
			}
		case oin && !nin:
			if output {
				if !oreq[k] {
					d.add("tool.output.property.removed", ps, fmt.Sprintf("output %q was removed", k), ov, nil)
				}
			} else if !oreq[k] {
				d.add("tool.input.optional.removed", ps, fmt.Sprintf("optional input %q was removed — a client that sends it is ignored or rejected", k), ov, nil)
			}
		default:
			om, _ := ov.(map[string]any)
			nm, _ := nv.(map[string]any)
			d.schema(output, ps, om, nm)
		}
	}
	apHandled := d.additionalProperties(output, path, o, n)
	for _, k := range keysUnion(o, n) {
		if schemaHandled[k] || (k == "additionalProperties" && apHandled) || treeEqual(o[k], n[k]) ||
			jeq(snapshot.CanonicalSchema(o[k]), snapshot.CanonicalSchema(n[k])) {
			continue
		}
		d.add(pick("tool.input.schema.changed", "tool.output.schema.changed"), path+"."+k, fmt.Sprintf("schema keyword %q changed", k), o[k], n[k])
	}
}

// openness ranks an additionalProperties value: 0 closed (false), 1 a
// subschema, 2 open (true, {} or absent, the JSON Schema default); -1 for
// a value that is none of these.
func openness(v any, present bool) int {
	if !present {
		return 2
	}
	switch x := v.(type) {
	case bool:
		if x {
			return 2
		}
		return 0
	case map[string]any:
		if len(x) == 0 {
			return 2
		}
		return 1
	}
	return -1
}

// additionalProperties classifies a change of openness by direction: a
// tighter input rejects what old clients send (breaking), a looser one
// accepts more (compatible); for outputs it is the reverse, as for types.
// Two different subschemas, or values it cannot rank, are left to the
// generic keyword rule; it reports whether it handled the keyword.
func (d *differ) additionalProperties(output bool, path string, o, n map[string]any) bool {
	ov, oin := o["additionalProperties"]
	nv, nin := n["additionalProperties"]
	ro, rn := openness(ov, oin), openness(nv, nin)
	if ro < 0 || rn < 0 || ro == rn {
		return false
	}
	p := path + ".additionalProperties"
	tighter := rn < ro
	switch {
	case !output && tighter:
		d.add("tool.input.additionalProperties.tightened", p, "the input schema now rejects more unlisted properties — an old client sending an extra argument may be rejected", ov, nv)
	case !output:
		d.add("tool.input.additionalProperties.loosened", p, "the input schema now accepts more unlisted properties", ov, nv)
	case tighter:
		d.add("tool.output.additionalProperties.tightened", p, "the output schema now allows fewer unlisted properties", ov, nv)
	default:
		d.add("tool.output.additionalProperties.loosened", p, "the output schema now allows more unlisted properties — clients may receive fields they were not written for", ov, nv)
	}
	return true
}

// typeSet returns the set of types a schema accepts; nil means any.
func typeSet(s map[string]any) map[string]bool {
	switch t := s["type"].(type) {
	case string:
		return map[string]bool{t: true}
	case []any:
		m := map[string]bool{}
		for _, e := range t {
			if str, ok := e.(string); ok {
				m[str] = true
			}
		}
		return m
	}
	return nil
}

// covers reports whether a schema of type set b accepts everything of a.
// Absent means any; number covers integer.
func covers(b, a map[string]bool) bool {
	if b == nil {
		return true
	}
	if a == nil {
		return false
	}
	for t := range a {
		if !b[t] && !(t == "integer" && b["number"]) {
			return false
		}
	}
	return true
}

func typeString(s map[string]bool) string {
	if s == nil {
		return "(any)"
	}
	return strings.Join(sortedKeysB(s), "|")
}

func (d *differ) types(output bool, ps string, o, n map[string]any) {
	ot, nt := typeSet(o), typeSet(n)
	fwd, back := covers(nt, ot), covers(ot, nt)
	if fwd && back {
		return
	}
	a, b := typeString(ot), typeString(nt)
	switch {
	case !output && !fwd:
		d.add("tool.input.type.narrowed", ps+".type", fmt.Sprintf("input type narrowed from %s to %s — values an old client sends may be rejected", a, b), a, b)
	case !output:
		d.add("tool.input.type.widened", ps+".type", fmt.Sprintf("input type widened from %s to %s", a, b), a, b)
	case !back:
		d.add("tool.output.type.widened", ps+".type", fmt.Sprintf("output type widened from %s to %s — clients may receive values they do not handle", a, b), a, b)
	default:
		d.add("tool.output.type.narrowed", ps+".type", fmt.Sprintf("output type narrowed from %s to %s", a, b), a, b)
	}
}

func (d *differ) enums(output bool, ps string, o, n map[string]any, pick func(string, string) string) {
	oe, ook := o["enum"].([]any)
	ne, nok := n["enum"].([]any)
	switch {
	case !ook && !nok:
		return
	case !ook:
		d.add(pick("tool.input.type.narrowed", "tool.output.type.narrowed"), ps+".enum", "an enum constraint was introduced", nil, ne)
		return
	case !nok:
		d.add(pick("tool.input.type.widened", "tool.output.type.widened"), ps+".enum", "the enum constraint was dropped", oe, nil)
		return
	}
	has := func(list []any, v any) bool {
		return slices.ContainsFunc(list, func(e any) bool { return jeq(e, v) })
	}
	for _, v := range oe {
		if !has(ne, v) {
			if output {
				d.add("tool.output.enum.removed", ps+".enum."+valueKey(v), fmt.Sprintf("output value %s is no longer produced", quoteVal(v)), v, nil)
			} else {
				d.add("tool.input.enum.removed", ps+".enum."+valueKey(v), fmt.Sprintf("input value %s is no longer accepted — an old client may send it", quoteVal(v)), v, nil)
			}
		}
	}
	for _, v := range ne {
		if !has(oe, v) {
			if output {
				d.add("output.enum.added", ps+".enum."+valueKey(v), fmt.Sprintf("output value %s was added — clients may not handle it", quoteVal(v)), nil, v)
			} else {
				subj := ps + ".enum." + valueKey(v)
				d.add("tool.input.enum.added", subj, fmt.Sprintf("input value %s is now accepted", quoteVal(v)), nil, v)
				if s, ok := v.(string); ok {
					a, verb := heuristic.ReadIdentifier(s)
					d.action("tool.input.enum.added", subj, fmt.Sprintf("new value %q", s), a, verb, v)
				}
			}
		}
	}
}

func stringSet(v any) map[string]bool {
	m := map[string]bool{}
	arr, _ := v.([]any)
	for _, e := range arr {
		if s, ok := e.(string); ok {
			m[s] = true
		}
	}
	return m
}

func sortedKeysB(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// bindings collects x-mcp-header strings reachable through properties
// chains only, keyed by subject path.
func bindings(prefix string, s map[string]any, out map[string]string) {
	props, _ := s["properties"].(map[string]any)
	for k, v := range props {
		ps, ok := v.(map[string]any)
		if !ok {
			continue
		}
		p := prefix + ".properties." + k
		if h, ok := ps["x-mcp-header"].(string); ok {
			out[p+".x-mcp-header"] = h
		}
		bindings(p, ps, out)
	}
}

func (d *differ) headers(p string, o, n map[string]any) {
	ob, nb := map[string]string{}, map[string]string{}
	bindings(p+".inputSchema", o, ob)
	bindings(p+".inputSchema", n, nb)
	for _, s := range sortedStrKeys(nb) {
		oh, ok := ob[s]
		switch {
		case !ok:
			d.add("xhdr.added", s, fmt.Sprintf("x-mcp-header %q was added — clients must now send it", nb[s]), nil, nb[s])
		case oh != nb[s]:
			d.add("xhdr.changed", s, fmt.Sprintf("x-mcp-header changed from %q to %q", oh, nb[s]), oh, nb[s])
		}
	}
	for _, s := range sortedStrKeys(ob) {
		if _, ok := nb[s]; !ok {
			d.add("xhdr.removed", s, fmt.Sprintf("x-mcp-header %q was removed", ob[s]), ob[s], nil)
		}
	}
}

func sortedStrKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// headerValidity compares the computed xmcpHeaders views by path.
func (d *differ) headerValidity(p string, o, n any) {
	valid := func(v any) map[string]bool {
		m := map[string]bool{}
		arr, _ := v.([]any)
		for _, e := range arr {
			h, _ := e.(map[string]any)
			path, _ := h["path"].(string)
			ok, _ := h["valid"].(bool)
			m[path] = ok
		}
		return m
	}
	ov, nv := valid(o), valid(n)
	for _, path := range sortedKeysB(nv) {
		was, ok := ov[path]
		if !ok {
			continue
		}
		subj := p + ".inputSchema." + path + ".x-mcp-header"
		switch {
		case was && !nv[path]:
			d.add("xhdr.invalidated", subj, "x-mcp-header binding became invalid — conforming clients must drop the tool", true, false)
		case !was && nv[path]:
			d.add("xhdr.validated", subj, "x-mcp-header binding became valid", false, true)
		}
	}
}

// renames pairs removed tools with added ones that are the same tool
// under a new name: the same input schema and the same description (a
// rename), or one of the two the same and the pairing unique both ways
// (a rename plus an edit, still a changed tool). Exact pairs are taken
// first; a tool is paired at most once.
func renames(removed, added []*toolRef) map[*toolRef]*toolRef {
	out := map[*toolRef]*toolRef{}
	if len(removed) == 0 || len(added) == 0 {
		return out
	}
	taken := map[*toolRef]bool{}
	for _, a := range removed {
		for _, b := range added {
			if !taken[b] && sameSchema(a, b) && sameDescription(a, b) {
				out[a], taken[b] = b, true
				break
			}
		}
	}
	// One of the two the same: only when a has one such candidate and
	// that candidate has no other.
	partial := func(a, b *toolRef) bool {
		if sameDescription(a, b) {
			return !sameSchema(a, b)
		}
		// The same schema alone says little when it has no properties or
		// a side has no description: such tools stay removed and added.
		return sameSchema(a, b) && hasProperties(a) && describe(a) != "" && describe(b) != ""
	}
	for _, a := range removed {
		if _, ok := out[a]; ok {
			continue
		}
		var cand []*toolRef
		for _, b := range added {
			if !taken[b] && partial(a, b) {
				cand = append(cand, b)
			}
		}
		if len(cand) != 1 {
			continue
		}
		b, unique := cand[0], true
		for _, o := range removed {
			if _, ok := out[o]; o != a && !ok && partial(o, b) {
				unique = false
			}
		}
		if unique {
			out[a], taken[b] = b, true
		}
	}
	return out
}

func sameSchema(a, b *toolRef) bool {
	return jeq(a.object()["inputSchema"], b.object()["inputSchema"])
}

// sameDescription: the same non-empty description, whitespace aside.
func sameDescription(a, b *toolRef) bool {
	da := describe(a)
	return da != "" && da == describe(b)
}

// describe is a tool's description with its whitespace collapsed.
func describe(t *toolRef) string {
	d, _ := t.object()["description"].(string)
	return strings.Join(strings.Fields(d), " ")
}

func hasProperties(t *toolRef) bool {
	s, _ := t.object()["inputSchema"].(map[string]any)
	p, _ := s["properties"].(map[string]any)
	return len(p) > 0
}

func renameBasis(a, b *toolRef) string {
	switch {
	case sameSchema(a, b) && sameDescription(a, b):
		return "same input schema and description"
	case sameSchema(a, b):
		return "same input schema, description edited"
	default:
		return "same description, input schema edited"
	}
}
