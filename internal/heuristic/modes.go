package heuristic

import (
	"slices"
	"strings"
)

// WhereInput is [Reading.Where] for a verb read in a tool's input schema:
// one of its modes or options ([ReadModes]).
const WhereInput = "input schema"

// maxSchemaDepth bounds how deep [ReadModes] walks an input schema: real
// schemas nest a few levels; a hostile one gains nothing by nesting more.
const maxSchemaDepth = 16

// ReadModes reads what a tool's input schema lets one call do beyond its
// name and description (docs/labels.md: a tool is labelled by the most
// dangerous thing one call can do):
//
//   - a mode: the values of an enum that lists operations, read as
//     identifiers ([ReadIdentifier]). An enum lists operations when at
//     least two of its values, and at least half, lead with a verb in its
//     base form ("list", "create", "delete", "rename"; "add_annotations",
//     "remove_annotations"; "click", "executeJavascript"). An enum of
//     states or filters ("opened", "merged", "build_failed") is no list of
//     operations.
//   - an option that deletes: a boolean property named by a deleting verb
//     ("delete", "prune"), or whose description leads with one, after "Set
//     to true to", "If true," or "Whether to" ("Delete the specified remote
//     branch", "Overwrite if file exists", "Set to true to delete a
//     block", or a verb glossed so: "Set to true to archive (delete) a
//     block"). A description that configures a default ("… by default")
//     acts on no call.
//
// It returns the most dangerous action found and the enum value or
// property name that names it; ActionNone when the schema names none.
// inputSchema is a decoded JSON Schema (maps and slices); anything else
// reads as nothing.
func ReadModes(inputSchema any) (Action, string) {
	best, word := ActionNone, ""
	consider := func(a Action, w string) {
		if danger(a) > danger(best) {
			best, word = a, w
		}
	}
	walkSchema(inputSchema, func(s map[string]any) {
		if vals, ok := s["enum"].([]any); ok && operationList(vals) {
			for _, v := range vals {
				str, _ := v.(string)
				a, _ := ReadIdentifier(str)
				consider(a, str)
			}
		}
		if props, ok := s["properties"].(map[string]any); ok {
			for name, p := range props {
				if a := deletingOption(name, p); a != ActionNone {
					consider(a, name)
				}
				if replacesStored(p) {
					consider(ActionDelete, name)
				}
			}
		}
	})
	return best, word
}

// walkSchema calls visit on every object of a decoded JSON Schema: the
// schema itself and, down to maxSchemaDepth, its properties, items,
// alternatives and definitions.
func walkSchema(schema any, visit func(map[string]any)) {
	var walk func(s any, depth int)
	walk = func(s any, depth int) {
		if depth > maxSchemaDepth {
			return
		}
		switch s := s.(type) {
		case []any:
			for _, x := range s {
				walk(x, depth+1)
			}
		case map[string]any:
			visit(s)
			for _, k := range []string{"properties", "items", "anyOf", "oneOf", "allOf", "$defs", "definitions"} {
				switch sub := s[k].(type) {
				case map[string]any:
					if k == "properties" || k == "$defs" || k == "definitions" {
						for _, p := range sub {
							walk(p, depth+1)
						}
					} else {
						walk(sub, depth+1)
					}
				case []any:
					walk(sub, depth+1)
				}
			}
		}
	}
	walk(schema, 0)
}

// SavesFile returns the name of an input property that says where the
// call saves what it fetches on the local disk ("outputDir",
// "output_path", "save_to", "local_path", "destination_folder"): a call
// given one writes a file, a change that lasts, though the tool's words
// only fetch ("Download usage data", "Get the build's failure logs").
// "" when there is none. The first in name order is returned, so the
// answer does not depend on map order.
func SavesFile(inputSchema any) string {
	found := ""
	walkSchema(inputSchema, func(s map[string]any) {
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			if (savePlace(name) || savesByWords(p)) && (found == "" || name < found) {
				found = name
			}
		}
	})
	return found
}

// savesByWords reports whether a property's description says that the
// call saves a file with it: a boolean option that leads with "save" or
// "write" and names a file ("Save screenshot as PNG file"), or a name or
// place to save to ("Filename to save as", "Directory to save the
// screenshot in").
func savesByWords(p any) bool {
	m, ok := p.(map[string]any)
	if !ok {
		return false
	}
	desc, _ := m["description"].(string)
	ws := words(desc)
	if len(ws) < 3 {
		return false
	}
	if m["type"] == "boolean" {
		_, base, _ := VerbAction(ws[0])
		return (base == "save" || base == "write") && (slices.Contains(ws, "file") || slices.Contains(ws, "disk"))
	}
	switch ws[0] {
	case "filename", "file", "path", "directory", "folder", "where":
	default:
		return false
	}
	for i := 1; i < len(ws)-1 && i <= 3; i++ {
		if ws[i] == "to" && ws[i+1] == "save" {
			return true
		}
	}
	return false
}

// savePlace reports whether a property name is a place to save to: a
// word for output or for saving, then one for a place on the disk
// ("outputDir", "out_file", "savePath", "local_path", "destinationFolder"),
// or "save" with "to" or "as" ("saveTo", "save_as").
func savePlace(name string) bool {
	ws := words(name)
	if len(ws) != 2 {
		return false
	}
	switch ws[0] {
	case "output", "out", "save", "dest", "destination", "download", "downloads", "local", "export":
	default:
		return false
	}
	switch ws[1] {
	case "dir", "directory", "folder", "path", "file", "filename", "filepath":
		return true
	case "to", "as":
		return ws[0] == "save"
	}
	return false
}

// operationList reports whether an enum's values name operations: at
// least two, and at least half, lead with a known verb in its base form.
func operationList(vals []any) bool {
	verbs := 0
	for _, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue
		}
		ws := words(s)
		if len(ws) == 0 {
			continue
		}
		if a, base, _ := VerbAction(ws[0]); a != ActionNone && base == ws[0] {
			verbs++
		}
	}
	return verbs >= 2 && 2*verbs >= len(vals)
}

// shapesOutput reports whether an option's description removes
// something from what the call returns ("Remove all script tags from the
// output"): it shapes the answer and deletes nothing (docs/labels.md).
func shapesOutput(desc string) bool {
	for _, place := range []string{"output", "result", "results", "response", "returned"} {
		if strings.Contains(desc, "from the "+place) || strings.Contains(desc, "from "+place) {
			return true
		}
	}
	return false
}

// replacesStored reports whether an input's description says that the
// value given replaces what is stored, in a sentence of its own that
// leads with the verb ("Replacement input JSON for the task. Replaces the
// stored input, it is not merged into it."; "Overwrites the existing
// content"): a call given it overwrites, which deletes (docs/labels.md).
func replacesStored(p any) bool {
	m, ok := p.(map[string]any)
	if !ok {
		return false
	}
	desc, _ := m["description"].(string)
	for _, sentence := range sentences(desc) {
		ws := words(sentence)
		if len(ws) < 3 || ws[0] != "replaces" && ws[0] != "overwrites" {
			continue
		}
		for _, w := range ws[1:min(len(ws), 4)] {
			switch w {
			case "existing", "stored", "current", "entire", "whole", "previous":
				return true
			}
		}
	}
	return false
}

// optionPrefixes lead a boolean option's description before its verb.
var optionPrefixes = []string{"set to true to ", "if true, ", "if true ", "whether to ", "when true, "}

// deletingOption returns ActionDelete when a property is a boolean option
// that makes the call delete ([ReadModes]), else ActionNone.
func deletingOption(name string, p any) Action {
	m, ok := p.(map[string]any)
	if !ok || m["type"] != "boolean" {
		return ActionNone
	}
	if a, base, _ := VerbAction(name); a == ActionDelete && base == strings.ToLower(name) {
		return ActionDelete
	}
	desc, _ := m["description"].(string)
	desc = strings.ToLower(strings.TrimSpace(desc))
	if strings.Contains(desc, "by default") || shapesOutput(desc) {
		return ActionNone
	}
	for _, p := range optionPrefixes {
		if strings.HasPrefix(desc, p) {
			desc = desc[len(p):]
			break
		}
	}
	first := firstWord(desc)
	if a, _, _ := VerbAction(first); a == ActionDelete {
		return ActionDelete
	}
	// A verb glossed in parentheses right after it says what it does:
	// "Set to true to archive (delete) a block".
	if rest := strings.TrimSpace(desc[len(first):]); first != "" && strings.HasPrefix(desc, first) && strings.HasPrefix(rest, "(") {
		if a, _, _ := VerbAction(firstWord(rest)); a == ActionDelete {
			return ActionDelete
		}
	}
	return ActionNone
}
