package heuristic

import (
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
