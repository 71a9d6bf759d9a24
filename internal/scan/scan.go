// Package scan judges what MCP servers offer a model, offline and
// deterministically, with no model and no network: instructions to the
// model hidden in a tool definition, secrecy, injection markers, requests
// for private data, invisible or deceptive text, homoglyph names,
// shadowing across the servers of one client config, toxic flows, secrets
// in descriptions and defaults, and instructions in tool results.
//
// Every finding carries the id of a rule of the one catalogue
// (internal/rules, group scan). The package is pure: it reads tool
// definitions as decoded JSON (snapshot.Object) and does no I/O.
//
//	fs := scan.Config([]scan.Server{{Name: "fs", Tools: tools}})
//	for _, f := range fs {
//		fmt.Println(f.Rule, f.Server, f.Tool, f.Field, f.Evidence)
//	}
package scan

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// Rule ids.
const (
	RuleInstruction     = "scan.instruction"
	RuleSecrecy         = "scan.secrecy"
	RuleMarker          = "scan.instruction_marker"
	RuleSensitive       = "scan.sensitive_request"
	RuleInvisible       = "scan.invisible_text"
	RuleHiddenSpace     = "scan.hidden_whitespace"
	RuleHomoglyph       = "scan.homoglyph_name"
	RuleDuplicateName   = "scan.shadowing.duplicate_name"
	RuleMentionsOther   = "scan.shadowing.mentions_other_server"
	RuleSteersOther     = "scan.shadowing.steers_other_server"
	RuleToxicFlow       = "scan.toxic_flow"
	RuleSecret          = "scan.secret"
	RuleResultInstructs = "scan.result_instruction"
)

// RuleIDs returns every rule id the scanner reports, sorted.
func RuleIDs() []string {
	out := []string{RuleInstruction, RuleSecrecy, RuleMarker, RuleSensitive, RuleInvisible, RuleHiddenSpace,
		RuleHomoglyph, RuleDuplicateName, RuleMentionsOther, RuleSteersOther, RuleToxicFlow, RuleSecret, RuleResultInstructs}
	slices.Sort(out)
	return out
}

// A Finding is one scan finding.
type Finding struct {
	Rule string `json:"rule"`
	// Level is the rule's class: risky or info.
	Level string `json:"level"`
	// Server and Tool name where the finding is; Server is empty when one
	// server was scanned alone. A duplicate name has Tool and Servers.
	// For a prompt, a resource or a resource template (Kind), Tool is its
	// name, its uri or its uriTemplate.
	Server string `json:"server,omitempty"`
	Tool   string `json:"tool,omitempty"`
	// Kind is what was scanned when it is not a tool: KindPrompt,
	// KindResource or KindResourceTemplate.
	Kind string `json:"kind,omitempty"`
	// Field is the path of the text in the tool definition
	// ("description", "inputSchema.properties.url.default", "result").
	Field string `json:"field,omitempty"`
	// Message says what was found, in one line.
	Message string `json:"message"`
	// Evidence is the text that decided, with invisible characters spelled
	// out as \u escapes.
	Evidence string `json:"evidence,omitempty"`
	// Servers of a duplicate name.
	Servers []string `json:"servers,omitempty"`
	// Mentions are the other servers' tools a definition names, as
	// server.tool.
	Mentions []string `json:"mentions,omitempty"`
	// ConfusableWith is the other server's tool (server.tool) a homoglyph
	// name looks like.
	ConfusableWith string `json:"confusableWith,omitempty"`
	// Sources, Private and Sinks are the tools (server.tool) of each role
	// of a toxic flow.
	Sources []string `json:"sources,omitempty"`
	Private []string `json:"private,omitempty"`
	Sinks   []string `json:"sinks,omitempty"`
}

// Qualified returns server.tool, or the tool alone when there is no server.
func (f Finding) Qualified() string { return qualify(f.Server, f.Tool) }

func qualify(server, tool string) string {
	if server == "" {
		return tool
	}
	return server + "." + tool
}

// Kinds of definitions other than tools.
const (
	KindPrompt           = "prompt"
	KindResource         = "resource"
	KindResourceTemplate = "resourceTemplate"
)

// A Server is one server of a client config with what it lists: tools,
// and the prompts, resources and resource templates, which are scanned
// with the per-text rules.
type Server struct {
	Name              string
	Tools             []snapshot.Object
	Prompts           []snapshot.Object
	Resources         []snapshot.Object
	ResourceTemplates []snapshot.Object
}

func newFinding(rule, server, tool, field, msg, evidence string) Finding {
	return Finding{Rule: rule, Level: rules.MustLookup(rule).Class, Server: server, Tool: tool, Field: field, Message: msg, Evidence: evidence}
}

// Tools scans the tools of one server on its own: the per-definition
// rules, and homoglyph names by their characters alone.
func Tools(server string, tools []snapshot.Object) []Finding {
	return Config([]Server{{Name: server, Tools: tools}})
}

// Config scans the servers of one client config: every definition, then
// the rules across servers (duplicate names, mentions of another server's
// tools, confusable names, toxic flows).
func Config(servers []Server) []Finding {
	// names[tool name] = the servers offering it; skel[skeleton] = the
	// qualified tools with that skeleton.
	names := map[string][]string{}
	skel := map[string][]string{}
	for _, s := range servers {
		for _, t := range s.Tools {
			n := snapshot.Str(t, "name")
			names[n] = append(names[n], s.Name)
			skel[skeleton(n)] = append(skel[skeleton(n)], qualify(s.Name, n))
		}
	}
	var out []Finding
	for _, s := range servers {
		own := make(map[string]bool, len(s.Tools))
		for _, t := range s.Tools {
			own[snapshot.Str(t, "name")] = true
		}
		for _, t := range s.Tools {
			out = append(out, scanTool(s.Name, t, own, names, skel)...)
		}
		out = append(out, scanOthers(s.Name, KindPrompt, s.Prompts)...)
		out = append(out, scanOthers(s.Name, KindResource, s.Resources)...)
		out = append(out, scanOthers(s.Name, KindResourceTemplate, s.ResourceTemplates)...)
	}
	out = append(out, duplicates(names)...)
	if f, ok := toxicFlow(servers); ok {
		out = append(out, f)
	}
	Sort(out)
	return out
}

// Sort orders findings by server, kind, tool, rule and field, for deterministic
// output.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		return cmp.Or(strings.Compare(a.Server, b.Server), strings.Compare(a.Kind, b.Kind), strings.Compare(a.Tool, b.Tool),
			strings.Compare(a.Rule, b.Rule), strings.Compare(a.Field, b.Field), strings.Compare(a.Evidence, b.Evidence)) < 0
	})
}

func duplicates(names map[string][]string) []Finding {
	var out []Finding
	for n, ss := range names {
		ss = uniqueSorted(ss)
		if len(ss) < 2 {
			continue
		}
		f := newFinding(RuleDuplicateName, "", n, "name", "tool "+quote(n)+" is offered by "+strings.Join(ss, " and "), "")
		f.Servers = ss
		out = append(out, f)
	}
	return out
}

func uniqueSorted(ss []string) []string {
	ss = slices.Clone(ss)
	slices.Sort(ss)
	return slices.Compact(ss)
}

// A textField is one string of a definition and where it is.
type textField struct {
	path, text string
	// param is true for text that describes or fills one parameter (its
	// description, default, enum), where "include X" means "put X here".
	param bool
	// value is true for text that fills a parameter (a default, an enum
	// value, a const, an example): a value the model passes on, which has
	// no business giving it orders.
	value bool
}

// fields returns the text fields of a tool definition: title,
// description, annotations.title, and every string of inputSchema and
// outputSchema but its types, formats, references and patterns.
func fields(t snapshot.Object) []textField {
	var out []textField
	for _, k := range []string{"title", "description"} {
		if s, ok := t[k].(string); ok && s != "" {
			out = append(out, textField{path: k, text: s})
		}
	}
	if a, ok := t["annotations"].(map[string]any); ok {
		if s, ok := a["title"].(string); ok && s != "" {
			out = append(out, textField{path: "annotations.title", text: s})
		}
	}
	for _, k := range []string{"inputSchema", "outputSchema"} {
		walkSchema(t[k], k, false, false, &out)
	}
	return out
}

// schemaSkip are schema keys whose strings are not prose.
var schemaSkip = map[string]bool{"type": true, "format": true, "$schema": true, "$ref": true, "$id": true,
	"$anchor": true, "$dynamicRef": true, "pattern": true, "required": true, "contentEncoding": true, "contentMediaType": true}

// schemaValues are the schema keys whose strings are values a parameter
// takes, not prose about it.
var schemaValues = map[string]bool{"default": true, "enum": true, "const": true, "examples": true}

func walkSchema(v any, path string, param, value bool, out *[]textField) {
	switch x := v.(type) {
	case string:
		if x != "" {
			*out = append(*out, textField{path: path, text: x, param: param, value: value})
		}
	case []any:
		for i, e := range x {
			walkSchema(e, path+"["+itoa(i)+"]", param, value, out)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if schemaSkip[k] {
				continue
			}
			if k == "properties" || k == "patternProperties" || k == "$defs" || k == "definitions" {
				if m, ok := x[k].(map[string]any); ok {
					pk := make([]string, 0, len(m))
					for p := range m {
						pk = append(pk, p)
					}
					slices.Sort(pk)
					for _, p := range pk {
						walkSchema(m[p], path+"."+k+"."+p, true, false, out)
					}
				}
				continue
			}
			walkSchema(x[k], path+"."+k, param, value || schemaValues[k], out)
		}
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}

// scanTool applies every per-definition rule to one tool.
// own holds the names of the server's own tools.
func scanTool(server string, t snapshot.Object, own map[string]bool, names map[string][]string, skel map[string][]string) []Finding {
	name := snapshot.Str(t, "name")
	var out []Finding
	add := func(rule, field, msg, ev string) {
		out = append(out, newFinding(rule, server, name, field, msg, ev))
	}
	if ev, ok := invisible(name); ok {
		add(RuleInvisible, "name", "the name holds invisible characters", ev)
	}
	out = append(out, homoglyph(server, name, skel)...)
	var mentions, steers []string
	var mentionField, steerField, steerEvidence string
	for _, fd := range instructions(nameWords(name), inName) {
		add(fd.rule, "name", fd.msg, fd.evidence)
	}
	for _, f := range fields(t) {
		mode := inDefinition
		switch {
		case f.value:
			mode = inValue
		case f.param:
			mode = inParam
		}
		for _, fd := range scanText(f.text, mode) {
			add(fd.rule, f.path, fd.msg, fd.evidence)
		}
		for _, tok := range identifiers(f.text) {
			if own[tok] || len(names[tok]) == 0 || !compound(tok) && !namedAsTool(f.text, tok) {
				continue
			}
			steering := false
			for _, s := range names[tok] {
				if s == server {
					continue
				}
				if mentionField == "" {
					mentionField = f.path
				}
				mentions = append(mentions, qualify(s, tok))
				if ev, ok := steersAbout(f.text, tok); steering || ok {
					steering = true
					if steerField == "" {
						steerField, steerEvidence = f.path, ev
					}
					steers = append(steers, qualify(s, tok))
				}
			}
		}
	}
	schema, _ := t["inputSchema"].(map[string]any)
	if props, ok := schema["properties"].(map[string]any); ok {
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p, _ := props[k].(map[string]any)
			def, _ := p["default"].(string)
			desc, _ := p["description"].(string)
			if def != "" && sensitiveDefault(def, k+" "+desc, snapshot.Str(t, "description")) {
				add(RuleSensitive, "inputSchema.properties."+k+".default", "the default passes private data on", clip(k+" = "+def+" ("+desc+")"))
			}
			if def != "" && copyRecipient(k) && reReachOut.MatchString(strings.ToLower(def)) {
				add(RuleSensitive, "inputSchema.properties."+k+".default", "the default copies what the call sends to a fixed address", clip(k+" = "+def+" ("+desc+")"))
			}
		}
	}
	if len(steers) > 0 {
		steers = uniqueSorted(steers)
		f := newFinding(RuleSteersOther, server, name, steerField, "the definition tells the model how to use another server's tool: "+strings.Join(steers, ", "), steerEvidence)
		f.Mentions = steers
		out = append(out, f)
	} else if len(mentions) > 0 {
		mentions = uniqueSorted(mentions)
		f := newFinding(RuleMentionsOther, server, name, mentionField, "the definition names another server's tool: "+strings.Join(mentions, ", "), "")
		f.Mentions = mentions
		out = append(out, f)
	}
	return out
}

// copyRecipient reports whether a property names an extra recipient of
// what the call sends (cc, bcc, forward_to): a default address there
// sends a copy of every call to someone the user did not name.
func copyRecipient(name string) bool {
	switch strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name)) {
	case "cc", "bcc", "forwardto", "copyto", "alsosendto", "archiveto", "auditto":
		return true
	}
	return false
}

// Prompts scans the prompts of one server (a prompts/list) with the
// per-text rules: name, title, description, and each argument's title
// and description.
func Prompts(server string, prompts []snapshot.Object) []Finding {
	out := scanOthers(server, KindPrompt, prompts)
	Sort(out)
	return out
}

// Resources scans the resources (a resources/list) or, with templates,
// the resource templates (resources/templates/list) of one server with
// the per-text rules: name, title and description.
func Resources(server string, resources []snapshot.Object, templates bool) []Finding {
	kind := KindResource
	if templates {
		kind = KindResourceTemplate
	}
	out := scanOthers(server, kind, resources)
	Sort(out)
	return out
}

// scanOthers applies the per-text rules to prompts, resources or
// resource templates: the same rule ids as on a tool, Kind saying where.
func scanOthers(server, kind string, defs []snapshot.Object) []Finding {
	var out []Finding
	for _, d := range defs {
		id := snapshot.Str(d, "name")
		switch kind {
		case KindResource:
			id = snapshot.Str(d, "uri")
		case KindResourceTemplate:
			id = snapshot.Str(d, "uriTemplate")
		}
		for _, f := range otherFields(kind, d) {
			mode := inDefinition
			if f.param {
				mode = inParam
			}
			for _, fd := range scanText(f.text, mode) {
				fnd := newFinding(fd.rule, server, id, f.path, fd.msg, fd.evidence)
				fnd.Kind = kind
				out = append(out, fnd)
			}
		}
	}
	return out
}

// otherFields returns the text fields of a prompt, resource or resource
// template: name, title, description; a prompt's arguments' title and
// description (as one parameter's text).
func otherFields(kind string, d snapshot.Object) []textField {
	var out []textField
	for _, k := range []string{"name", "title", "description"} {
		if s, ok := d[k].(string); ok && s != "" {
			out = append(out, textField{path: k, text: s})
		}
	}
	if kind != KindPrompt {
		return out
	}
	args, _ := d["arguments"].([]any)
	for i, a := range args {
		m, _ := a.(map[string]any)
		for _, k := range []string{"title", "description"} {
			if s, ok := m[k].(string); ok && s != "" {
				out = append(out, textField{path: "arguments[" + itoa(i) + "]." + k, text: s, param: true})
			}
		}
	}
	return out
}

// A textFinding is a rule finding in one text.
type textFinding struct {
	rule, msg, evidence string
}

// scanText applies the text rules to one string: invisible characters,
// hidden whitespace, secrets, and the instruction rules.
func scanText(s string, mode textMode) []textFinding {
	var out []textFinding
	if ev, ok := invisible(s); ok {
		out = append(out, textFinding{RuleInvisible, "the text holds invisible characters", ev})
	}
	if ev, ok := hiddenAfterWhitespace(s); ok {
		out = append(out, textFinding{RuleHiddenSpace, "text follows a long run of whitespace", ev})
	}
	for _, ev := range secrets(s) {
		out = append(out, textFinding{RuleSecret, "the text holds what looks like a live credential", ev})
	}
	out = append(out, instructions(visible(s), mode)...)
	return out
}

// Result scans the text of a tool result (live traffic) for
// instructions to the model: every instruction rule that fires on it is
// reported as scan.result_instruction, plus invisible text.
func Result(text string) []Finding {
	var out []Finding
	seen := map[string]bool{}
	for _, fd := range scanText(unescapeJSONText(text), inResult) {
		rule := RuleResultInstructs
		switch fd.rule {
		case RuleInvisible, RuleSecret:
			continue
		case RuleHiddenSpace:
			continue
		}
		if seen[fd.evidence] {
			continue
		}
		seen[fd.evidence] = true
		out = append(out, newFinding(rule, "", "", "result", "the result "+strings.TrimPrefix(fd.msg, "the text "), fd.evidence))
	}
	return out
}

// nameWords reads a tool name as words ("always_call_this_first" →
// "always call this first"), for the instruction rules.
func nameWords(name string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.':
			r = ' '
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

func quote(s string) string { return "\"" + escape(s) + "\"" }

// jsonEscapes undoes the escapes of JSON strings.
var jsonEscapes = strings.NewReplacer(`\n`, "\n", `\r`, "\r", `\t`, "\t", `\"`, `"`, `\/`, "/", `\\`, `\`)

// unescapeJSONText reads a result that is JSON text (an issue, a row, a
// message serialised by the server) with its string escapes undone, so
// that the lines of an embedded body are lines: many servers return
// their data as JSON in a text content.
func unescapeJSONText(text string) string {
	if !strings.Contains(text, `\n`) && !strings.Contains(text, `\"`) {
		return text
	}
	return jsonEscapes.Replace(text)
}
