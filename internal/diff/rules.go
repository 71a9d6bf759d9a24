package diff

import "slices"

// RuleInfo describes one diff rule.
type RuleInfo struct {
	ID      string `json:"id"`
	Tier    Tier   `json:"tier"`
	Summary string `json:"summary"`
	// Rationale says why the rule has its tier.
	Rationale string `json:"rationale"`
	// Origin is "snapgauge" for rules kept from its taxonomy with the same
	// id, tier and subject, "mcpward" for rules that close its gaps.
	Origin string `json:"origin"`
}

const sg, mw = "snapgauge", "mcpward"

// catalogue is the rule table. It is data: docs are generated from it.
var catalogue = []RuleInfo{
	// breaking (snapgauge)
	{"tool.removed", Breaking, "a tool in old is missing in new", "a client holding the old contract calls it and fails", sg},
	{"tool.renamed", Breaking, "a tool in old is missing in new, and a tool new in new has its input schema and description (or one of the two, the pairing unique): the same tool under a new name; its other changes are reported too", "a client calling the old name fails; pinning by name alone misses a rug pull behind a rename", mw},
	{"tool.input.required.added", Breaking, "a name was added to required (also a new required property)", "an old client does not send it", sg},
	{"tool.input.type.narrowed", Breaking, "an input type no longer covers the old one, or an enum was introduced", "values an old client sends may now be rejected", sg},
	{"tool.input.enum.removed", Breaking, "an input enum lost a value (one finding per value)", "an old client may send the removed value", sg},
	{"tool.output.required.added", Breaking, "a name was added to the output schema's required", "kept as snapgauge rates it: the output contract moved under the client", sg},
	{"xhdr.added", Breaking, "an x-mcp-header binding appears on an input", "clients must now mirror the value into a header they did not send", sg},
	{"xhdr.changed", Breaking, "an x-mcp-header binding names a different header", "old clients send the old header name", sg},
	{"capability.removed", Breaking, "a top-level server capability disappeared", "clients relying on the capability fail", sg},
	{"version.dropped", Breaking, "a supported protocol version disappeared", "clients pinned to it can no longer talk", sg},
	{"annotation.readOnlyHint.revoked", Breaking, "readOnlyHint was true and is no longer true", "a tool auto-approved as read-only may now write", sg},
	{"annotation.destructiveHint.raised", Breaking, "destructiveHint became true", "a tool may now destroy data", sg},
	{"annotation.idempotentHint.revoked", Breaking, "idempotentHint was true and is no longer true", "retries are no longer safe", sg},
	{"error.code.changed", Breaking, "a probe's JSON-RPC error code changed", "clients branch on error codes", sg},
	// risky (snapgauge)
	{"tool.description.changed", Risky, "a tool description changed (not whitespace-only)", "descriptions are the trigger surface a model routes on", sg},
	{"tool.title.changed", Risky, "a tool title changed (not whitespace-only)", "titles are text a model and a user route on", sg},
	{"tool.added", Risky, "a tool in new is missing in old", "expands the action surface and can shadow other tools", sg},
	{"instructions.changed", Risky, "server instructions changed (not whitespace-only)", "instructions steer the model", sg},
	{"order.changed", Risky, "both sides list in a stable order, same set, different sequence", "order influences model choice and caching", sg},
	{"order.nondeterministic", Risky, "the new side lists tools in an unstable order", "unstable lists defeat caching and review", sg},
	{"cacheScope.widened", Risky, "cacheScope went private → public", "private data may now be shared by caches", sg},
	{"ttlMs.raised", Risky, "ttlMs grew", "clients keep stale surfaces longer", sg},
	{"output.enum.added", Risky, "an output enum gained a value (one finding per value)", "clients may not handle the new value", sg},
	{"annotation.readOnlyHint.relaxed", Risky, "readOnlyHint became true", "a claim that can lead to auto-approval", sg},
	{"annotation.destructiveHint.relaxed", Risky, "destructiveHint was true and is no longer", "a claim that can lead to auto-approval", sg},
	{"annotation.idempotentHint.relaxed", Risky, "idempotentHint became true", "a claim that can lead to automatic retries", sg},
	// compatible (snapgauge)
	{"tool.input.optional.added", Compatible, "a new optional input", "old clients simply do not send it", sg},
	{"tool.input.enum.added", Compatible, "an input enum gained a value (one finding per value)", "old values still accepted", sg},
	{"tool.input.type.widened", Compatible, "an input type now covers more, or an enum was dropped", "old values still accepted", sg},
	{"required.removed", Compatible, "a name left the input's required", "old clients send it anyway", sg},
	{"capability.added", Compatible, "a new top-level capability", "old clients ignore it", sg},
	{"version.added", Compatible, "a new supported protocol version", "old clients keep their version", sg},
	{"ttlMs.lowered", Compatible, "ttlMs shrank", "clients refresh sooner", sg},
	{"cacheScope.narrowed", Compatible, "cacheScope went public → private", "caches share less", sg},
	// cosmetic (snapgauge)
	{"tool.icons.changed", Cosmetic, "a tool's icons changed", "presentation only", sg},
	{"serverInfo.version.changed", Cosmetic, "serverInfo.version changed", "a label; behaviour is diffed elsewhere", sg},
	{"_meta.vendor.changed", Cosmetic, "a tool's _meta changed", "vendor metadata, not contract", sg},
	{"text.whitespace-only", Cosmetic, "a description, title or instructions change that is whitespace only", "equal once whitespace is removed", sg},

	// mcpward: tools and schemas
	{"tool.input.enum.added_destructive", Risky, "a new input enum value reads as a destructive action (delete, drop, purge, …; the heuristic's verbs), beside tool.input.enum.added", "a destructive action now hides behind an unchanged tool name: mcp-surfaceprint's 'upgrade adds a destructive operation' event", mw},
	{"tool.input.enum.added_write", Risky, "a new input enum value reads as a write, send or execute action (update, send, exec, …; the heuristic's verbs), beside tool.input.enum.added", "a new state-changing action hides behind an unchanged tool name", mw},
	{"tool.input.optional.added_destructive", Risky, "a new optional input whose name (or its description's leading verb) reads as destructive (force_delete, overwrite, …), beside tool.input.optional.added", "an old call still works, but the tool gained a destructive mode", mw},
	{"tool.input.optional.added_write", Risky, "a new optional input whose name (or its description's leading verb) reads as a write, send or execute action (send_email, exec, …), beside tool.input.optional.added", "an old call still works, but the tool gained a state-changing mode", mw},
	{"tool.input.optional.removed", Risky, "an optional input disappeared", "an old client still sends it: the server ignores it silently or rejects it", mw},
	{"tool.input.additionalProperties.tightened", Breaking, "an input schema now closes or narrows additionalProperties (absent or true → a subschema → false)", "an old client sending an argument the schema does not list is now rejected", mw},
	{"tool.input.additionalProperties.loosened", Compatible, "an input schema now opens or widens additionalProperties (false → a subschema → absent or true)", "everything an old client sent is still accepted", mw},
	{"tool.output.additionalProperties.loosened", Breaking, "an output schema now opens or widens additionalProperties", "clients validating structured output may now receive properties they were not written for", mw},
	{"tool.output.additionalProperties.tightened", Compatible, "an output schema now closes or narrows additionalProperties", "clients receive a subset of what they handled", mw},
	{"tool.input.schema.changed", Risky, "another input schema keyword changed (description, pattern, bounds, default, format, an additionalProperties subschema, items…)", "unclassified constraint or text a model reads: needs review, never silent", mw},
	{"tool.output.required.removed", Breaking, "a name left the output schema's required", "clients relying on the field may not get it", mw},
	{"tool.output.enum.removed", Compatible, "an output enum lost a value (one finding per value)", "clients see a subset of what they handled", mw},
	{"tool.output.type.widened", Breaking, "an output type now covers more, or an output enum was dropped", "clients receive values they were not written for", mw},
	{"tool.output.type.narrowed", Compatible, "an output type now covers less, or an output enum was introduced", "clients receive a subset of what they handled", mw},
	{"tool.output.property.added", Compatible, "a new output property", "clients ignore fields they do not know", mw},
	{"tool.output.property.removed", Risky, "an optional output property disappeared", "clients reading it get nothing", mw},
	{"tool.output.schema.added", Compatible, "an outputSchema appeared", "structured output is now promised; old clients ignore it", mw},
	{"tool.output.schema.removed", Breaking, "the outputSchema disappeared", "clients validating structured output lose the contract", mw},
	{"tool.output.schema.changed", Risky, "another output schema keyword changed", "unclassified change to what clients receive: needs review", mw},
	{"tool.field.changed", Risky, "another tool field changed (execution, a vendor field…)", "unclassified: needs review, never silent", mw},
	{"annotation.openWorldHint.raised", Risky, "openWorldHint became true", "the tool now reaches outside systems", mw},
	{"annotation.openWorldHint.lowered", Compatible, "openWorldHint was true and is no longer", "a narrower claim", mw},
	{"annotation.other.changed", Cosmetic, "another annotation (title, vendor hints) changed", "hints without defined client behaviour", mw},
	{"xhdr.removed", Risky, "an x-mcp-header binding disappeared", "intermediaries routing on the header lose it; the argument still flows", mw},
	{"xhdr.invalidated", Breaking, "a binding that was valid is now invalid", "conforming clients must drop the tool from tools/list", mw},
	{"xhdr.validated", Compatible, "a binding that was invalid is now valid", "the tool becomes visible to conforming clients", mw},
	// mcpward: discover
	{"serverInfo.name.changed", Risky, "serverInfo.name changed", "a different server may now answer behind the same endpoint", mw},
	{"serverInfo.changed", Cosmetic, "another serverInfo field changed (title, icons, websiteUrl…)", "presentation", mw},
	{"capability.feature.added", Compatible, "a key appeared inside an existing capability", "old clients ignore it", mw},
	{"capability.feature.removed", Risky, "a key disappeared inside an existing capability (e.g. listChanged)", "clients relying on the sub-feature lose it", mw},
	{"capability.feature.changed", Risky, "a value inside an existing capability changed", "sub-feature semantics changed", mw},
	{"discover.protocolVersion.changed", Cosmetic, "the negotiated protocol version changed", "supported versions are diffed by version.*", mw},
	{"cacheScope.changed", Risky, "cacheScope changed other than private↔public (absent, unknown value)", "caching semantics changed in a way the tiers above do not rank", mw},
	// mcpward: resources, templates, prompts
	{"resource.removed", Breaking, "a resource disappeared", "a client that reads the URI fails", mw},
	{"resource.added", Compatible, "a new resource", "resources are application-controlled: nothing reads it unless chosen, so no model action surface grows", mw},
	{"resource.mimeType.changed", Risky, "a resource's mimeType changed", "clients parse by mime type", mw},
	{"resource.metadata.changed", Cosmetic, "another resource field changed (name, title, description, size, annotations…)", "presentation for the user who picks resources", mw},
	{"resourceTemplate.removed", Breaking, "a resource template disappeared", "clients that expand it fail", mw},
	{"resourceTemplate.added", Compatible, "a new resource template", "application-controlled, like resources", mw},
	{"resourceTemplate.mimeType.changed", Risky, "a template's mimeType changed", "clients parse by mime type", mw},
	{"resourceTemplate.metadata.changed", Cosmetic, "another template field changed", "presentation", mw},
	{"prompt.removed", Breaking, "a prompt disappeared", "a client that gets it fails", mw},
	{"prompt.added", Compatible, "a new prompt", "prompts are user-controlled: nothing invokes it unless a user picks it", mw},
	{"prompt.argument.required.added", Breaking, "a new required prompt argument, or an argument became required", "old clients do not send it", mw},
	{"prompt.argument.optional.added", Compatible, "a new optional prompt argument", "old clients simply do not send it", mw},
	{"prompt.argument.removed", Risky, "a prompt argument disappeared", "old clients still send it: ignored or rejected", mw},
	{"prompt.argument.required.removed", Compatible, "a prompt argument is no longer required", "old clients send it anyway", mw},
	{"prompt.description.changed", Cosmetic, "a prompt description changed", "text a user picks from; no model routes on it", mw},
	{"prompt.metadata.changed", Cosmetic, "another prompt or argument field changed", "presentation", mw},
	// mcpward: manifest (surfaceprint's capability view)
	{"manifest.tool.added", Risky, "a manifest entry appeared", "a new multiplexed capability: the action surface grows, like tool.added", mw},
	{"manifest.tool.removed", Breaking, "a manifest entry disappeared", "declared operations behind it are gone", mw},
	{"manifest.operation.added", Risky, "an operation appeared under an existing tool (one finding per operation)", "new actions hide behind an unchanged tool name", mw},
	{"manifest.operation.added_destructive", Risky, "a new manifest operation reads as destructive (delete, drop, purge, …), beside manifest.operation.added", "names the heuristic's reading: a destructive action behind an unchanged tool name", mw},
	{"manifest.operation.added_write", Risky, "a new manifest operation reads as a write, send or execute action, beside manifest.operation.added", "names the heuristic's reading: a state-changing action behind an unchanged tool name", mw},
	{"manifest.operation.removed", Breaking, "an operation disappeared (one finding per operation)", "clients dispatching it fail", mw},
	{"manifest.description.changed", Risky, "a manifest entry's description changed", "declared text describing what a tool can do", mw},
	{"manifest.uri.changed", Cosmetic, "the manifest resource moved", "the content is diffed entry by entry", mw},
	// mcpward: behaviour
	{"behavior.error.appeared", Breaking, "a probe that returned a result now returns a JSON-RPC error", "the call no longer works", mw},
	{"behavior.error.disappeared", Compatible, "a probe that returned a JSON-RPC error now returns a result", "the call now works; review whether validation was dropped", mw},
	{"behavior.isError.raised", Breaking, "a probe's tool result became isError:true", "the call now reports failure", mw},
	{"behavior.isError.cleared", Compatible, "a probe's tool result is no longer isError", "the call now succeeds", mw},
	{"behavior.resultType.changed", Risky, "a probe's resultType changed (e.g. complete → input_required)", "clients must now handle another flow", mw},
	{"behavior.structured.changed", Risky, "a probe's structured content shape (or value) changed", "clients parse structured content", mw},
	{"behavior.content.changed", Risky, "a probe's content blocks changed type or shape", "clients render and parse blocks", mw},
	{"behavior.content.text.changed", Cosmetic, "only the text of a probe's content changed", "shape mode stores a hash; live text varies", mw},
	{"behavior.meta.changed", Cosmetic, "a probe's result _meta keys changed", "metadata, not contract", mw},
	{"behavior.httpStatus.changed", Risky, "a probe's HTTP status changed", "clients and proxies act on status", mw},
	{"behavior.contentType.changed", Cosmetic, "a probe's response content type changed (JSON vs SSE)", "clients must accept both", mw},
}

var ruleByID = func() map[string]RuleInfo {
	m := make(map[string]RuleInfo, len(catalogue))
	for _, r := range catalogue {
		m[r.ID] = r
	}
	return m
}()

// LookupRule returns the diff rule with the given id.
func LookupRule(id string) (RuleInfo, bool) {
	r, ok := ruleByID[id]
	return r, ok
}

// Rules returns the rule catalogue, sorted by tier (highest first) and id.
func Rules() []RuleInfo {
	out := slices.Clone(catalogue)
	slices.SortStableFunc(out, func(a, b RuleInfo) int {
		if a.Tier != b.Tier {
			return int(b.Tier - a.Tier)
		}
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
	return out
}
