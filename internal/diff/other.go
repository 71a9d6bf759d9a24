package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/heuristic"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// resources diffs resources (kind "resource") or templates
// (kind "resourceTemplate").
// opages and npages are how many pages each side's list was read in.
func (d *differ) resources(section, key, kind string, o, n []snapshot.Object, opages, npages int) {
	if d.section(section, len(o) == 0, len(n) == 0, max(len(o), len(n))) {
		return
	}
	om, oids := index(o, key)
	nm, nids := index(n, key)
	word := map[string]string{"resource": "resource", "resourceTemplate": "resource template"}[kind]
	for _, id := range oids {
		if _, ok := nm[id]; !ok && !d.unpaged(section, d.un, opages) {
			d.add(kind+".removed", section+"."+id, fmt.Sprintf("%s %q was removed — a client that reads it will fail", word, id), nil, nil)
		}
	}
	for _, id := range nids {
		a, ok := om[id]
		if !ok {
			if !d.unpaged(section, d.uo, npages) {
				d.add(kind+".added", section+"."+id, fmt.Sprintf("%s %q was added", word, id), nil, nil)
			}
			continue
		}
		a, b := d.strip([]string{section, id}, section+".*", a, nm[id])
		for _, k := range keysUnion(a, b) {
			if jeq(a[k], b[k]) {
				continue
			}
			if k == "mimeType" {
				d.add(kind+".mimeType.changed", section+"."+id+".mimeType", "mimeType changed — clients parse by it", a[k], b[k])
				continue
			}
			d.add(kind+".metadata.changed", section+"."+id+"."+k, k+" changed", a[k], b[k])
		}
	}
}

func args(p snapshot.Object) (map[string]map[string]any, []string) {
	m := map[string]map[string]any{}
	var names []string
	arr, _ := p["arguments"].([]any)
	for _, a := range arr {
		am, ok := a.(map[string]any)
		if !ok {
			continue
		}
		n := snapshot.Str(am, "name")
		if _, dup := m[n]; !dup {
			names = append(names, n)
		}
		m[n] = am
	}
	slices.Sort(names)
	return m, names
}

func (d *differ) prompts(o, n []snapshot.Object, opages, npages int) {
	if d.section("prompts", len(o) == 0, len(n) == 0, max(len(o), len(n))) {
		return
	}
	om, oids := index(o, "name")
	nm, nids := index(n, "name")
	for _, id := range oids {
		if _, ok := nm[id]; !ok && !d.unpaged("prompts", d.un, opages) {
			d.add("prompt.removed", "prompts."+id, fmt.Sprintf("prompt %q was removed — a client that gets it will fail", id), nil, nil)
		}
	}
	for _, id := range nids {
		a, ok := om[id]
		if !ok {
			if !d.unpaged("prompts", d.uo, npages) {
				d.add("prompt.added", "prompts."+id, fmt.Sprintf("prompt %q was added", id), nil, nil)
			}
			continue
		}
		a, b := d.strip([]string{"prompts", id}, "prompts.*", a, nm[id])
		p := "prompts." + id
		for _, k := range keysUnion(a, b) {
			switch {
			case k == "arguments" || jeq(a[k], b[k]):
			case k == "description":
				d.add("prompt.description.changed", p+".description", "description changed", a[k], b[k])
			default:
				d.add("prompt.metadata.changed", p+"."+k, k+" changed", a[k], b[k])
			}
		}
		oa, oan := args(a)
		na, nan := args(b)
		for _, name := range nan {
			s := p + ".arguments." + name
			nArg := na[name]
			oArg, had := oa[name]
			req := isTrue(nArg, "required")
			switch {
			case !had && req:
				d.add("prompt.argument.required.added", s, fmt.Sprintf("argument %q is now required — a client recorded against the old contract does not send it", name), nil, nArg)
			case !had:
				d.add("prompt.argument.optional.added", s, fmt.Sprintf("optional argument %q was added", name), nil, nArg)
			default:
				oArg, nArg := d.strip([]string{"prompts", id, "arguments", name}, "prompts.*.arguments.*", oArg, nArg)
				req := isTrue(nArg, "required")
				wasReq := isTrue(oArg, "required")
				if req && !wasReq {
					d.add("prompt.argument.required.added", s+".required", fmt.Sprintf("argument %q is now required — a client recorded against the old contract does not send it", name), oArg["required"], true)
				} else if !req && wasReq {
					d.add("prompt.argument.required.removed", s+".required", fmt.Sprintf("argument %q is no longer required", name), true, nArg["required"])
				}
				for _, k := range keysUnion(oArg, nArg) {
					if k != "required" && !jeq(oArg[k], nArg[k]) {
						d.add("prompt.metadata.changed", s+"."+k, fmt.Sprintf("argument %q %s changed", name, k), oArg[k], nArg[k])
					}
				}
			}
		}
		for _, name := range oan {
			if _, ok := na[name]; !ok {
				d.add("prompt.argument.removed", p+".arguments."+name, fmt.Sprintf("argument %q was removed — a client that sends it is ignored or rejected", name), oa[name], nil)
			}
		}
	}
}

func (d *differ) manifest(o, n *snapshot.Manifest) {
	if (o == nil && n == nil) || d.section("manifest", o == nil, n == nil, 1) {
		return
	}
	index := func(m *snapshot.Manifest) (map[string]snapshot.ManifestTool, []string) {
		out := map[string]snapshot.ManifestTool{}
		var ids []string
		if m == nil {
			return out, nil
		}
		for _, t := range m.Tools {
			if _, dup := out[t.Tool]; !dup {
				ids = append(ids, t.Tool)
			}
			out[t.Tool] = t
		}
		slices.Sort(ids)
		return out, ids
	}
	if o != nil && n != nil && o.URI != n.URI {
		d.add("manifest.uri.changed", "manifest.uri", "manifest resource moved", o.URI, n.URI)
	}
	om, oids := index(o)
	nm, nids := index(n)
	for _, id := range oids {
		if _, ok := nm[id]; !ok {
			d.add("manifest.tool.removed", "manifest.tools."+id, fmt.Sprintf("manifest tool %q (%s) was removed", id, opsCount(om[id].Operations)), nil, nil)
		}
	}
	for _, id := range nids {
		a, ok := om[id]
		b := nm[id]
		if !ok {
			d.add("manifest.tool.added", "manifest.tools."+id, fmt.Sprintf("manifest tool %q (%s) was added", id, opsCount(b.Operations)), nil, nil)
			continue
		}
		p := "manifest.tools." + id
		if a.Description != b.Description {
			d.add("manifest.description.changed", p+".description", "declared description changed", a.Description, b.Description)
		}
		oo, no := setOf(a.Operations), setOf(b.Operations)
		for _, op := range sortedKeysB(oo) {
			if !no[op] {
				d.add("manifest.operation.removed", p+".operations."+op, fmt.Sprintf("operation %q was removed from %q — clients dispatching it will fail", op, id), op, nil)
			}
		}
		for _, op := range sortedKeysB(no) {
			if !oo[op] {
				d.add("manifest.operation.added", p+".operations."+op, fmt.Sprintf("operation %q was added behind the existing tool %q", op, id), nil, op)
				a, verb := heuristic.ReadIdentifier(op)
				d.action("manifest.operation.added", p+".operations."+op, fmt.Sprintf("new operation %q of %q", op, id), a, verb, op)
			}
		}
	}
}

func opsCount(ops []string) string {
	switch len(ops) {
	case 0:
		return "single action"
	case 1:
		return "1 operation"
	}
	return fmt.Sprintf("%d operations", len(ops))
}

// explainedBySchema returns a predicate that reports whether a probe's
// behaviour change is already explained by a tool finding: the probed tool
// was removed, or it now requires an input the probe does not send. Such a
// probe's failure is the consequence the schema finding names, not a second
// change, so reporting it again would double-count one break.
func explainedBySchema(o, n *snapshot.Surface, dec *snapshot.ToolDecoder) func(b *snapshot.Behavior) bool {
	var oldTools, newTools *toolSet
	return func(b *snapshot.Behavior) bool {
		if b.Tool == "" {
			return false
		}
		if oldTools == nil {
			// Only when there is a probe to explain: most diffs have none.
			oldTools, newTools = toolsOf(o, dec), toolsOf(n, dec)
		}
		ot, nt := oldTools.find(b.Tool), newTools.find(b.Tool)
		if ot != nil && nt == nil {
			return true
		}
		if ot == nil || nt == nil {
			return false
		}
		before := requiredNames(ot.object())
		for _, r := range requiredNames(nt.object()) {
			if !slices.Contains(before, r) && !slices.Contains(b.ArgumentKeys, r) {
				return true
			}
		}
		return false
	}
}

// requiredNames returns the top-level required input names of a tool.
func requiredNames(t snapshot.Object) []string {
	schema, _ := t["inputSchema"].(map[string]any)
	list, _ := schema["required"].([]any)
	var out []string
	for _, r := range list {
		if s, ok := r.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (d *differ) behavior(o, n map[string]*snapshot.Behavior, explained func(*snapshot.Behavior) bool) {
	ids := make([]string, 0, len(o))
	for id := range o {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		a, b := o[id], n[id]
		if a == nil || b == nil {
			// A probe without evidence on one side is incomplete evidence,
			// reported by coverage, never a behaviour change.
			continue
		}
		if explained(b) {
			continue
		}
		d.probe("behavior."+id, a, b)
	}
}

func (d *differ) probe(p string, a, b *snapshot.Behavior) {
	if a.HTTPStatus != 0 && b.HTTPStatus != 0 && a.HTTPStatus != b.HTTPStatus {
		d.add("behavior.httpStatus.changed", p+".httpStatus", fmt.Sprintf("HTTP status changed from %d to %d", a.HTTPStatus, b.HTTPStatus), a.HTTPStatus, b.HTTPStatus)
	}
	if a.ContentType != "" && b.ContentType != "" && mediaType(a.ContentType) != mediaType(b.ContentType) {
		d.add("behavior.contentType.changed", p+".contentType", "response content type changed", a.ContentType, b.ContentType)
	}
	ae, be := a.ErrorCode != nil, b.ErrorCode != nil
	switch {
	case ae && be:
		if *a.ErrorCode != *b.ErrorCode {
			d.add("error.code.changed", p+".errorCode", fmt.Sprintf("error code changed from %d to %d — clients branch on it", *a.ErrorCode, *b.ErrorCode), *a.ErrorCode, *b.ErrorCode)
		}
		return
	case !ae && be:
		d.add("behavior.error.appeared", p+".errorCode", fmt.Sprintf("the probe now fails with error %d — the call no longer works", *b.ErrorCode), nil, *b.ErrorCode)
		return
	case ae && !be:
		d.add("behavior.error.disappeared", p+".errorCode", fmt.Sprintf("the probe no longer fails with error %d", *a.ErrorCode), *a.ErrorCode, nil)
		return
	}
	switch {
	case !a.IsError && b.IsError:
		d.add("behavior.isError.raised", p+".isError", "the tool result now reports isError — the call fails", false, true)
	case a.IsError && !b.IsError:
		d.add("behavior.isError.cleared", p+".isError", "the tool result no longer reports isError", true, false)
	}
	if a.ResultType != b.ResultType {
		d.add("behavior.resultType.changed", p+".resultType", fmt.Sprintf("resultType changed from %q to %q", a.ResultType, b.ResultType), a.ResultType, b.ResultType)
	}
	if !jeq(a.StructuredShape, b.StructuredShape) {
		d.add("behavior.structured.changed", p+".structuredShape", "structured content shape changed", a.StructuredShape, b.StructuredShape)
	}
	if !jeq(a.StructuredContent, b.StructuredContent) {
		d.add("behavior.structured.changed", p+".structuredContent", "structured content changed", a.StructuredContent, b.StructuredContent)
	}
	if !jeq(a.ContentBlocks, b.ContentBlocks) {
		if jeq(blockSkeleton(a.ContentBlocks), blockSkeleton(b.ContentBlocks)) {
			d.add("behavior.content.text.changed", p+".contentBlocks", "content text changed", nil, nil)
		} else {
			d.add("behavior.content.changed", p+".contentBlocks", "content blocks changed type or shape", a.ContentBlocks, b.ContentBlocks)
		}
	}
	if !slices.Equal(a.MetaKeys, b.MetaKeys) {
		d.add("behavior.meta.changed", p+".metaKeys", "result _meta keys changed", strings.Join(a.MetaKeys, ","), strings.Join(b.MetaKeys, ","))
	}
}

func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// blockSkeleton drops the text (or its hash) of text blocks so that only
// types and shapes are compared.
func blockSkeleton(blocks []any) []any {
	out := make([]any, len(blocks))
	for i, b := range blocks {
		m, ok := b.(map[string]any)
		if !ok || snapshot.Str(m, "type") != "text" {
			out[i] = b
			continue
		}
		c := map[string]any{}
		for k, v := range m {
			if k != "text" && k != "sha256" {
				c[k] = v
			}
		}
		out[i] = c
	}
	return out
}
