package heuristic

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpward/mcpward/internal/mcp"
)

func TestClassifyTool(t *testing.T) {
	tests := []struct {
		name, desc string
		want       Risk
	}{
		// Each word of each rule.
		{"delete", "", Destructive}, {"remove", "", Destructive}, {"destroy", "", Destructive},
		{"drop", "", Destructive}, {"purge", "", Destructive}, {"clear", "", Destructive}, {"reset", "", Destructive},
		{"create", "", Write}, {"add", "", Write}, {"update", "", Write}, {"set", "", Write},
		{"send", "", Write}, {"write", "", Write}, {"upload", "", Write},
		{"get", "", Read}, {"list", "", Read}, {"search", "", Read}, {"read", "", Read},
		{"fetch", "", Read}, {"find", "", Read}, {"show", "", Read}, {"view", "", Read},
		// Precedence: destructive > write > read, across name and description.
		{"get_and_delete", "", Destructive},
		{"list_items", "Adds nothing", Write},
		{"create_item", "Removes the old one first", Destructive},
		{"fetch", "Fetch and update notes", Write}, // a strong verb anywhere in the main clause
		// Unknown → write.
		{"frobnicate", "", Write},
		{"frobnicate", "Does things", Write},
		// surfaceprint's toy_open server: destructive 1, write 2, read 2.
		{"list_items", "", Read}, {"get_item", "", Read}, {"create_item", "", Write},
		{"delete_item", "", Destructive},
		// Separator normalisation (surfaceprint test_classify_and_signals).
		{"get_file_info", "", Read}, {"delete-file", "", Destructive}, {"delete.file", "", Destructive},
		// Case-insensitive.
		{"DELETE_ALL", "", Destructive}, {"Get", "", Read},
		// Whole words only: substrings do not match.
		{"address_lookup", "", Read}, // "add" inside "address" is no verb; "lookup" is
		{"getaway", "", Write},
		{"settings_info", "", Read}, // "set" inside "settings" is no verb; "info" leads the rest
		{"undelete", "", Write},
		{"listener", "", Write},
		// Differences from surfaceprint: camelCase and inflections match.
		{"deleteItem", "", Destructive},
		{"getItem", "", Read},
		{"HTTPGetHandler", "", Read},
		{"s3Upload", "", Write},
		{"notes", "Deletes a note", Destructive},
		{"notes", "Permanently removed", Destructive},
		{"notes", "Fetching notes", Read},
		{"notes", "Wrote a file", Write},
		// "found" is not a read form.
		{"frobnicate", "Errors if not found", Write},
		// Issue 24: the reviewer's reading. Words in subordinate clauses
		// and later sentences do not decide.
		{"edit_file", "Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made.", Write},
		{"sequentialthinking", "A detailed tool for dynamic and reflective problem-solving through thoughts. Use it when the scope is not clear at first.", Write}, // no verb: unknown is write
		{"test_trigger_tool_change", "Mutates the tool list to trigger a notifications/tools/list_changed", Write},
		{"write_file", "Create a new file or completely overwrite an existing file with new content.", Destructive},
		{"git_branch", "Manage branches: list all branches, show current branch, create a new branch, delete a branch", Destructive},
		{"generate_pie_chart", "Generate a pie chart to show the proportion of parts", Read}, // "show" is subordinate; "generate" returns what it makes
		{"browser_click", "Perform click on a web page", Write},
		{"run-code", "Run code snippet and return the result.", Write},
		{"get_report", "Get the report, which is updated hourly", Read},
		// The name's first verb is its verb; later words are its object
		// unless coordinated ("get_and_delete" above).
		{"get_merge_request_note", "", Write},                              // "merge" is an object: without a read-only claim it stays open, so write
		{"list_commits", "List commits", Write},                            // likewise
		{"list_commits", "Get list of commits of a branch", Read},          // a noun phrase ("of commits") holds no verb, nor a name's inflected word
		{"get_commit", "Get details of a specific commit", Write},          // the name's base-form "commit" still leaves it open
		{"download_file", "Download an uploaded file", Read},               // "an uploaded file": an adjective in a noun phrase
		{"diff_and_commit", "Get the diff and commit it", Write},           // a conjunction closes the noun phrase: "commit" is coordinated
		{"pods_log", "Get the logs of a pod", Read},                        // a weak word after the first is a noun when the description has a verb
		{"nodes_log", "", Write},                                           // … and a verb when it has none
		{"API-post-search", "Notion | Search by title", Read},              // a product label before "|" is skipped
		{"browser_console_messages", "Returns all console messages", Read}, // weak words count in their base form only
		{"start_thinking", "Begin a session", Write},                       // a weak verb leading the name counts
		// The description's verbs: its leading verb and the verbs
		// coordinated with it in the same form.
		{"browser_tabs", "List, create, close, or select a browser tab.", Write},
		{"tabs", "Lists and deletes tabs", Destructive},
		{"diffs", "Get diffs between two branches or commits", Write}, // "commits" does not agree with "Get": an object, open without a claim
		{"search_files", "Recursively search for files", Read},        // an adverb before the verb
		{"notes", "Permanently delete a note", Destructive},
		{"browser_take_screenshot", "Take a screenshot of the current page", Read}, // a light verb: the noun is the action
		{"browser_drag", "Perform drag and drop between two elements", Write},
		{"new_page", "Open a new tab and load a URL.", Write},                                     // a reading verb whose object is new creates
		{"list_issues", "List issues (default: created by current user). It is read-only.", Read}, // a colon in parentheses starts no list
		{"scrape", "Scrape one URL and return its content: markdown, links, screenshots.", Read},
		{"set_page", "Replaces the content of one page", Destructive},
		{"evaluate_script", "Evaluate JavaScript inside the target page", Write},
		{"simple greeting", "", Read},
		{"add", "Adds two numbers", Read}, // arithmetic computes
		{"add", "Adds a row to the sheet", Write},
		// "open" starts a program when its object is one; a document
		// shown in a viewer, or nodes, are read.
		{"open_diagram", "Opens the diagram editor with a diagram from XML", Write},
		{"open_in_app", "Open the file in the desktop application", Write}, // starts the application (session 13; was read)
		{"open_in_viewer", "Open the file in the viewer", Read},            // the client's viewer shows it
		{"display_pdf", "Open a PDF in an interactive viewer.", Read},
		{"open_nodes", "Open specific nodes in the knowledge graph", Read},
		// A later sentence that states in the passive what a changing call
		// deletes: the call deletes.
		{"resources_create_or_update", "Create or update a resource. The manifest is the complete desired state: any field this tool previously set and the new manifest omits is removed.", Destructive},
		{"sync_folder", "Sync a folder. Remote files will be permanently deleted.", Destructive},
		{"sync_folder", "Sync a folder. Files that are deleted locally stay.", Write}, // a relative clause: no effect of the call
		{"sync_folder", "Sync a folder. If a file is removed, it is skipped.", Write}, // a condition
		{"list_trash", "List the trash. Items are removed after 30 days.", Read},      // a reading call deletes nothing
		{"write_note", "Write a note. Its old text is not removed.", Write},           // a negation
		// A name's verb that undoes a change is what "Remove …" paraphrases.
		{"unprotect_branch", "Remove protection from a previously protected branch.", Write},
		{"unassign_issue", "Removes the assignee from an issue", Write},
		{"unprotect_branch", "Remove protection and delete the branch", Destructive}, // a deleting verb besides the paraphrase still deletes
		{"unlink_file", "Remove the file", Destructive},                              // "unlink" deletes: it undoes no change
		{"protect_branch", "Remove a branch", Destructive},
		// "drop" onto or into something places it (drag and drop).
		{"browser_drop", "Drop files or data onto an element, as if dragged from outside the page.", Write},
		{"drop_table", "Drop the table and its rows", Destructive},
	}
	for _, tt := range tests {
		if got := ClassifyTool(tt.name, tt.desc); got != tt.want {
			t.Errorf("ClassifyTool(%q, %q) = %q, want %q", tt.name, tt.desc, got, tt.want)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"getItem", []string{"get", "item"}},
		{"HTTPServer", []string{"http", "server"}},
		{"get_file-info", []string{"get", "file", "info"}},
		{"s3Upload", []string{"s", "3", "upload"}},
		{"  ", nil},
		{"Ünïcode wörd", []string{"ünïcode", "wörd"}},
		{"don't", []string{"don", "t"}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, words(tt.in)); d != "" {
			t.Errorf("words(%q) mismatch (-want +got):\n%s", tt.in, d)
		}
	}
}

func TestClassifyWithAnnotations(t *testing.T) {
	tr, fa := true, false
	tests := []struct {
		name string
		tool string
		desc string
		ann  *mcp.ToolAnnotations
		want Label
	}{
		{"no annotations: the spec defaults claim destructive", "delete_note", "", nil,
			Label{Risk: Destructive, Source: SourceHeuristic, Annotated: Destructive, OpenWorld: true, Heuristic: Destructive, Action: ActionDelete, Word: "delete", Where: "name"}},
		{"hints absent", "list_notes", "", &mcp.ToolAnnotations{OpenWorldHint: &fa},
			Label{Risk: Read, Source: SourceHeuristic, Annotated: Destructive, Heuristic: Read, Action: ActionRead, Word: "list", Where: "name"}},
		{"agree read", "list_notes", "", &mcp.ToolAnnotations{ReadOnlyHint: &tr},
			Label{Risk: Read, Source: SourceHeuristic, Annotated: Read, Declared: true, OpenWorld: true, Heuristic: Read, Action: ActionRead, Word: "list", Where: "name"}},
		{"read-only claim on destructive words: both shown", "delete_note", "", &mcp.ToolAnnotations{ReadOnlyHint: &tr},
			Label{Risk: Destructive, Source: SourceHeuristic, Annotated: Read, Declared: true, OpenWorld: true, Heuristic: Destructive, Action: ActionDelete, Word: "delete", Where: "name", Conflict: true}},
		{"sequentialthinking: no verb, the declared claim decides", "sequentialthinking", "A detailed tool for dynamic problem-solving. Clear it when done.", &mcp.ToolAnnotations{ReadOnlyHint: &tr},
			Label{Risk: Read, Source: SourceAnnotations, Annotated: Read, Declared: true, OpenWorld: true}},
		{"non-destructive claim", "archive_note", "", &mcp.ToolAnnotations{DestructiveHint: &fa},
			Label{Risk: Write, Source: SourceHeuristic, Annotated: Write, Declared: true, OpenWorld: true, Heuristic: Write, Action: ActionWrite, Word: "archive", Where: "name"}},
		{"unknown words, nothing declared", "frobnicate", "", nil,
			Label{Risk: Write, Source: SourceDefault, Annotated: Destructive, OpenWorld: true}},
		{"send from the description", "notes", "Sends the note to a channel", nil,
			Label{Risk: Write, Source: SourceHeuristic, Annotated: Destructive, OpenWorld: true, Heuristic: Write, Action: ActionSend, Word: "send", Where: "description"}},
		{"an object word, settled by a read-only claim", "get_commit", "Get details of a specific commit", &mcp.ToolAnnotations{ReadOnlyHint: &tr},
			Label{Risk: Read, Source: SourceHeuristic, Annotated: Read, Declared: true, OpenWorld: true, Heuristic: Read, Action: ActionRead, Word: "get", Where: "name"}},
		{"an object word, not settled: absent readOnlyHint is false", "get_commit", "Get details of a specific commit", &mcp.ToolAnnotations{DestructiveHint: &fa},
			Label{Risk: Write, Source: SourceHeuristic, Annotated: Write, Declared: true, OpenWorld: true, Heuristic: Write, Action: ActionWrite, Word: "commit", Where: "name"}},
		{"a weak name verb against a reading description, settled by a read-only claim", "trigger-long-running-operation", "Demonstrates a long running operation with progress updates.", &mcp.ToolAnnotations{ReadOnlyHint: &tr},
			Label{Risk: Read, Source: SourceHeuristic, Annotated: Read, Declared: true, OpenWorld: true, Heuristic: Read, Action: ActionRead, Word: "demonstrate", Where: "description"}},
		{"a weak name verb against a reading description, not settled", "trigger-long-running-operation", "Demonstrates a long running operation with progress updates.", nil,
			Label{Risk: Write, Source: SourceHeuristic, Annotated: Destructive, OpenWorld: true, Heuristic: Write, Action: ActionWrite, Word: "trigger", Where: "name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClassifyWithAnnotations(tt.tool, tt.desc, tt.ann)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("ClassifyWithAnnotations mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestRank(t *testing.T) {
	if !(Read.Rank() < Write.Rank() && Write.Rank() < Destructive.Rank()) {
		t.Errorf("ranks out of order")
	}
	if Risk("odd").Rank() != Write.Rank() {
		t.Errorf("unknown risk should rank as write")
	}
}

// TestReadModes pins docs/labels.md's policy as the heuristic reads it:
// a mode or option of the input schema counts when it is more dangerous
// than the words; a list of states or filters, an output option and a
// default setting do not.
func TestReadModes(t *testing.T) {
	obj := func(props string) any {
		var v any
		if err := json.Unmarshal([]byte(`{"type":"object","properties":{`+props+`}}`), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name   string
		schema any
		want   Action
		word   string
	}{
		{"mode enum", obj(`"mode":{"type":"string","enum":["list","create","delete","rename","show-current"]}`), ActionDelete, "delete"},
		{"weak verbs lead values", obj(`"mode":{"enum":["list","push","pop","apply","drop","clear"]}`), ActionDelete, "drop"},
		{"per-item action", obj(`"files":{"type":"array","items":{"type":"object","properties":{"action":{"enum":["create","update","delete","move"]}}}}`), ActionDelete, "delete"},
		{"compound values", obj(`"action":{"enum":["navigate","add_annotations","remove_annotations","get_text"]}`), ActionDelete, "remove_annotations"},
		{"page actions", obj(`"actions":{"type":"array","items":{"properties":{"type":{"enum":["wait","scroll","click","write","executeJavascript"]}}}}`), ActionExecute, "executeJavascript"},
		{"nested in anyOf", obj(`"edit":{"anyOf":[{"type":"object","properties":{"type":{"enum":["replace_content","update_content"]}}}]}`), ActionDelete, "replace_content"},
		{"states are no operations", obj(`"state":{"enum":["opened","closed","merged","all"]}`), ActionNone, ""},
		{"filters are no operations", obj(`"action":{"enum":["assigned","mentioned","build_failed","marked","merge_train_removed"]}`), ActionNone, ""},
		{"one verb is no list", obj(`"format":{"enum":["markdown","html","screenshot","links"]}`), ActionNone, ""},
		{"option named by its verb", obj(`"delete":{"type":"boolean","description":"Delete the specified remote branch."}`), ActionDelete, "delete"},
		{"option led by a weak verb", obj(`"prune":{"type":"boolean","description":"Prune remote-tracking references."}`), ActionDelete, "prune"},
		{"set to true to delete", obj(`"in_trash":{"type":"boolean","description":"Set to true to delete a block."}`), ActionDelete, "in_trash"},
		{"a verb glossed by a deleting one", obj(`"archived":{"type":"boolean","description":"Set to true to archive (delete) a block. Set to false to un-archive (restore) a block."}`), ActionDelete, "archived"},
		{"a gloss that does not delete", obj(`"archived":{"type":"boolean","description":"Set to true to archive (hide) a block."}`), ActionNone, ""},
		{"overwrite option", obj(`"overwrite":{"type":"boolean","description":"Overwrite if file exists."}`), ActionDelete, "overwrite"},
		{"a default setting", obj(`"remove_source_branch_after_merge":{"type":"boolean","description":"Remove source branches after merge by default"}`), ActionNone, ""},
		{"an output option", obj(`"removeBase64Images":{"type":"boolean"}`), ActionNone, ""},
		{"not a boolean", obj(`"delete":{"type":"string","description":"Delete this"}`), ActionNone, ""},
		{"no schema", nil, ActionNone, ""},
		{"not an object", "delete", ActionNone, ""},
	}
	for _, tt := range tests {
		a, w := ReadModes(tt.schema)
		if a != tt.want || w != tt.word {
			t.Errorf("%s: ReadModes = %q, %q; want %q, %q", tt.name, a, w, tt.want, tt.word)
		}
	}
	// Depth is bounded: a schema nested deeper than maxSchemaDepth is not
	// read past it (and does not recurse without end).
	var deep any = map[string]any{"enum": []any{"list", "delete"}}
	for range maxSchemaDepth + 2 {
		deep = map[string]any{"items": deep}
	}
	if a, _ := ReadModes(deep); a != ActionNone {
		t.Errorf("a schema nested %d deep was read: %q", maxSchemaDepth+2, a)
	}
}

// TestClassifyDefinition: a mode more dangerous than the words decides,
// in the input schema; a less dangerous one leaves the words' label.
func TestClassifyDefinition(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"mode": map[string]any{"enum": []any{"list", "create", "delete"}}}}
	l := ClassifyDefinition("git_tag", "Manage tags", nil, schema)
	if l.Risk != Destructive || l.Where != WhereInput || l.Word != "delete" || l.Action != ActionDelete {
		t.Errorf("git_tag: got %+v, want destructive from %q in the input schema", l, "delete")
	}
	l = ClassifyDefinition("delete_tag", "Delete a tag", nil, map[string]any{"properties": map[string]any{
		"mode": map[string]any{"enum": []any{"list", "create"}}}})
	if l.Risk != Destructive || l.Where != "name" {
		t.Errorf("delete_tag: got %+v, want destructive from its name", l)
	}
	ro := true
	l = ClassifyDefinition("tags", "List tags", &mcp.ToolAnnotations{ReadOnlyHint: &ro}, schema)
	if l.Risk != Destructive || !l.Conflict {
		t.Errorf("a read-only claim with a delete mode: got %+v, want destructive and a conflict", l)
	}
}

func TestOnlyReads(t *testing.T) {
	yes, no := true, false
	ro := &mcp.ToolAnnotations{ReadOnlyHint: &yes}
	modes := map[string]any{"type": "object", "properties": map[string]any{"action": map[string]any{"enum": []any{"list", "get", "delete"}}}}
	for _, tt := range []struct {
		name, desc string
		ann        *mcp.ToolAnnotations
		schema     any
		want       bool
	}{
		{"lookup", "Looks up a word.", ro, nil, true},
		{"lookup", "Looks up a word.", nil, nil, false},
		{"lookup", "Looks up a word.", &mcp.ToolAnnotations{ReadOnlyHint: &no}, nil, false},
		{"delete_file", "Deletes a file.", ro, nil, false},
		{"manage_items", "Manage items.", ro, modes, false},
		// Labelled read (the claim settles the open reading), but "trigger"
		// in its name is a signal: no probe.
		{"trigger-long-running-operation", "Demonstrates a long running operation with progress updates.", ro, nil, false},
	} {
		if got, _, _, _ := OnlyReads(tt.name, tt.desc, tt.ann, tt.schema); got != tt.want {
			t.Errorf("OnlyReads(%s, %v, schema %v) = %v, want %v", tt.name, tt.ann != nil, tt.schema != nil, got, tt.want)
		}
	}
}

// TestOpenReadings pins the two readings the words leave open and what
// settles them: a verb as often a change as a read (format, generate,
// render, download, convert), settled as a change by a readOnlyHint:
// false the server set itself; and an input that says where to save what
// the call fetches. A claim of read-only settles both as read.
// objectSchema is an object input schema of these properties.
func objectSchema(props map[string]any) map[string]any {
	return map[string]any{"type": "object", "properties": props}
}

func TestOpenReadings(t *testing.T) {
	yes, no, destructive := true, false, true
	ro := &mcp.ToolAnnotations{ReadOnlyHint: &yes}
	rw := &mcp.ToolAnnotations{ReadOnlyHint: &no}
	onlyDestructive := &mcp.ToolAnnotations{DestructiveHint: &destructive}
	str := map[string]any{"type": "string"}
	nested := objectSchema(map[string]any{"options": objectSchema(map[string]any{"saveTo": str, "limit": str})})
	for _, tt := range []struct {
		name, desc string
		ann        *mcp.ToolAnnotations
		schema     any
		want       Risk
		word       string
	}{
		{"format_cells", "Format a block of cells.", rw, nil, Write, "format"},
		{"make_invoice", "Generate an invoice for the order.", rw, nil, Write, "generate"},
		{"format_cells", "Format a block of cells.", ro, nil, Read, "format"},
		// Without a claim of its own the two-sided verb reads, and a hint
		// left to its default claims nothing.
		{"format_date", "Format a date as ISO 8601.", nil, nil, Read, "format"},
		{"format_date", "Format a date as ISO 8601.", onlyDestructive, nil, Read, "format"},
		// A one-sided reading verb is not settled by the claim.
		{"get_weather", "Get the weather for a city.", rw, nil, Read, "get"},
		{"fetch_report", "Fetch the monthly report.", nil, objectSchema(map[string]any{"outputDir": str}), Write, "outputDir"},
		{"fetch_report", "Fetch the monthly report.", nil, objectSchema(map[string]any{"output_path": str}), Write, "output_path"},
		{"fetch_report", "Fetch the monthly report.", nil, nested, Write, "saveTo"},
		{"fetch_report", "Fetch the monthly report.", ro, objectSchema(map[string]any{"local_path": str}), Read, "fetch"},
		// Output that shapes the answer, not a place on the disk.
		{"fetch_report", "Fetch the monthly report.", nil, objectSchema(map[string]any{"outputFormat": str, "output": str}), Read, "fetch"},
	} {
		l := ClassifyDefinition(tt.name, tt.desc, tt.ann, tt.schema)
		if l.Risk != tt.want || l.Word != tt.word {
			t.Errorf("%s %q: got %s from %q, want %s from %q", tt.name, tt.desc, l.Risk, l.Word, tt.want, tt.word)
		}
	}
}

func TestSavePlace(t *testing.T) {
	for name, want := range map[string]bool{
		"outputDir": true, "output_directory": true, "outFile": true, "savePath": true, "save_to": true,
		"saveAs": true, "local_path": true, "destinationFolder": true, "downloadDir": true,
		"output": false, "outputFormat": false, "path": false, "save": false, "localeDir": false,
		"output_dir_name": false, "exportTo": false,
	} {
		if got := savePlace(name); got != want {
			t.Errorf("savePlace(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestSession13Readings pins the general causes behind the misses of the
// session-13 held-out servers (measured blind first: 83.2 %), each beside
// a twin it must not change.
func TestSession13Readings(t *testing.T) {
	yes := true
	ro := &mcp.ToolAnnotations{ReadOnlyHint: &yes}
	boolOpt := func(desc string) map[string]any { return map[string]any{"type": "boolean", "description": desc} }
	strOpt := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	checkReadings(t, []reading{
		// Reloading a page changes it, as navigating does.
		{"refreshBrowser", "Reloads the inspected tab.", nil, nil, Write},
		{"get_tab", "Returns the inspected tab.", nil, nil, Read},
		// A passive sentence saying the call saved what it read.
		{"takeScreenshot", "Captures the visible area of the current tab and returns the image directly, plus the path it was saved to.", nil, nil, Write},
		{"list_shots", "Lists the screenshots that were saved to the folder.", nil, nil, Read},
		// Ending a session and generating its file.
		{"end_codegen_session", "End a code generation session and generate the test file", nil, nil, Write},
		// A boolean option that saves a file; a name to save as.
		{"screenshot", "Take a screenshot of the current page", nil, objectSchema(map[string]any{"savePng": boolOpt("Save screenshot as PNG file (default: false)")}), Write},
		{"screenshot", "Take a screenshot of the current page", nil, objectSchema(map[string]any{"fullPage": boolOpt("Store screenshot of the entire page (default: false)")}), Read},
		{"screenshot", "Take a screenshot of the current page", nil, objectSchema(map[string]any{"name": strOpt("Filename to save as, relative to the screenshot directory")}), Write},
		{"screenshot", "Take a screenshot of the current page", nil, objectSchema(map[string]any{"downloadsDir": strOpt("Custom downloads directory path")}), Write},
		{"screenshot", "Take a screenshot of the current page", nil, objectSchema(map[string]any{"name": strOpt("Name for the screenshot")}), Read},
		// Opening something in the user's browser starts it; in the
		// client's viewer it only shows.
		{"give_feedback", "Open feedback form in browser to provide feedback.", nil, nil, Write},
		{"view_pdf", "Open a PDF in an interactive viewer.", nil, nil, Read},
		// Running a query or an audit reads when the server claims so;
		// without a claim it is left to what run does.
		{"find", "Run a find query against a MongoDB collection", ro, nil, Read},
		{"aggregate", "Run an aggregation against a MongoDB collection", ro, nil, Read},
		{"runAccessibilityAudit", "Lighthouse accessibility audit of the current page.", ro, nil, Read},
		{"start_search", "Start a streaming search that can return results progressively.", ro, nil, Read},
		{"run_sql", "Run a SQL query against the database", nil, nil, Write},
		{"run_script", "Run a script on the server", ro, nil, Write},
		// Options that remove something from the answer shape it.
		{"get_html", "Get the HTML of the page", nil, objectSchema(map[string]any{"removeScripts": boolOpt("Remove all script tags from the output")}), Read},
		{"get_html", "Get the HTML of the page", nil, objectSchema(map[string]any{"removeCache": boolOpt("Remove the cached copy on the server")}), Destructive},
		// Overwritten in the passive, and a rewrite mode.
		{"upsert-records", "Insert or update records in an index. Records with an existing id are overwritten.", nil, nil, Destructive},
		{"write_file", "Write or append to file contents.", nil, objectSchema(map[string]any{"mode": map[string]any{"enum": []any{"rewrite", "append"}}}), Destructive},
		{"write_file", "Write or append to file contents.", nil, objectSchema(map[string]any{"mode": map[string]any{"enum": []any{"create", "append"}}}), Write},
		{"tavily_research", "Perform comprehensive research on a given topic.", nil, nil, Read},
	})
}

// TestSession13bReadings pins the general causes found when the misses of
// split 13b were read, each beside a twin the same words must not move.
func TestSession13bReadings(t *testing.T) {
	yes, no := true, false
	ro := &mcp.ToolAnnotations{ReadOnlyHint: &yes}
	notRO := &mcp.ToolAnnotations{ReadOnlyHint: &no}
	strOpt := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	checkReadings(t, []reading{
		// A weak verb ending a list of nouns is a noun; in a list of verbs
		// it is a verb.
		{"get_job", "Get a saved job: the program it runs, its name, stored input, and run options.", nil, nil, Read},
		{"manage_job", "Manage a saved job: list, inspect, or run it.", nil, nil, Write},
		// What a run does, said in its object.
		{"query", "Run a read-only SQL query", nil, nil, Read},
		{"query", "Run a SQL query", nil, nil, Write},
		{"site-reader", "Select and run one of the following read operations (read-only) get-site, list-sites", ro, nil, Read},
		{"browser_select", "Select an option in a dropdown", nil, nil, Write},
		// A compound name's head is its last word; the verb before it
		// stands as an object, which a read-only claim settles.
		{"deploy-services-reader", "Reads deploy services.", ro, nil, Read},
		{"deploy-services", "Reads deploy services.", ro, nil, Write},
		// Resetting the session's own state writes; resetting data deletes.
		{"session_close", "Close the current session and reset the active context.", nil, nil, Write},
		{"db_reset", "Close the connection and reset the database.", nil, nil, Destructive},
		// Learning is reading; calling a program runs it.
		{"learn_api", "Load the documentation of an API before writing code for it.", nil, nil, Read},
		{"call-program", "Call any program from the catalogue.", nil, nil, Write},
		// A first sentence without a verb leaves the reading to the next
		// one that changes state, never to one that only reads.
		{"project_onboarding", "Onboard a project. Creates an application and saves its keys to a file.", nil, nil, Write},
		{"repo_sync", "Sync with upstream. Fetches the upstream branches.", nil, nil, Write},
		// The server says the call is not read-only and a later sentence
		// says what it changes.
		{"get_guide", "Fetch and return the setup guide. Updates the callback URLs on the application.", notRO, nil, Write},
		{"get_guide", "Fetch and return the setup guide. Updates the callback URLs on the application.", ro, nil, Read},
		{"get_guide", "Fetch and return the setup guide. Lists the callback URLs.", notRO, nil, Read},
		// An input whose value replaces what is stored overwrites.
		{"update_task", "Update a saved task.", nil, objectSchema(map[string]any{"input": strOpt("Input for the task. Replaces the stored input, it is not merged into it.")}), Destructive},
		{"update_task", "Update a saved task.", nil, objectSchema(map[string]any{"input": strOpt("Input for the task. Merged into the stored input.")}), Write},
	})
}

// A reading is one case of the readings tests: a definition and the
// label it must get.
type reading struct {
	name, desc string
	ann        *mcp.ToolAnnotations
	schema     any
	want       Risk
}

func checkReadings(t *testing.T, cases []reading) {
	t.Helper()
	for _, tt := range cases {
		if l := ClassifyDefinition(tt.name, tt.desc, tt.ann, tt.schema); l.Risk != tt.want {
			t.Errorf("%s %q (schema %v): got %s (%s from %q), want %s", tt.name, tt.desc, tt.schema != nil, l.Risk, l.Where, l.Word, tt.want)
		}
	}
}
