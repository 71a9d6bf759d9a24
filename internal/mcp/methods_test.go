package mcp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMethodAvailability pins the DIGEST §2 tables: for each method, the
// revisions in which it is a real JSON-RPC message.
func TestMethodAvailability(t *testing.T) {
	const (
		a = "24"
		b = "25a"
		c = "25b"
		d = "25c"
		e = "26"
	)
	short := map[Revision]string{Rev20241105: a, Rev20250326: b, Rev20250618: c, Rev20251125: d, Rev20260728: e}
	tests := []struct {
		method string
		want   []string
	}{
		{MethodInitialize, []string{a, b, c, d}},
		{MethodPing, []string{a, b, c, d}},
		{MethodDiscover, []string{e}},
		{MethodToolsList, []string{a, b, c, d, e}},
		{MethodToolsCall, []string{a, b, c, d, e}},
		{MethodResourcesList, []string{a, b, c, d, e}},
		{MethodResourcesTemplatesList, []string{a, b, c, d, e}},
		{MethodResourcesRead, []string{a, b, c, d, e}},
		{MethodResourcesSubscribe, []string{a, b, c, d}},
		{MethodResourcesUnsubscribe, []string{a, b, c, d}},
		{MethodPromptsList, []string{a, b, c, d, e}},
		{MethodPromptsGet, []string{a, b, c, d, e}},
		{MethodCompletionComplete, []string{a, b, c, d, e}},
		{MethodLoggingSetLevel, []string{a, b, c, d}},
		{MethodSubscriptionsListen, []string{e}},
		{MethodSamplingCreateMessage, []string{a, b, c, d}},
		{MethodRootsList, []string{a, b, c, d}},
		{MethodElicitationCreate, []string{c, d}},
		{MethodTasksGet, []string{d}},
		{MethodTasksResult, []string{d}},
		{MethodTasksList, []string{d}},
		{MethodTasksCancel, []string{d}},
		{MethodTasksUpdate, nil},
		{NotificationInitialized, []string{a, b, c, d}},
		{NotificationCancelled, []string{a, b, c, d, e}},
		{NotificationProgress, []string{a, b, c, d, e}},
		{NotificationMessage, []string{a, b, c, d, e}},
		{NotificationToolsListChanged, []string{a, b, c, d, e}},
		{NotificationPromptsListChanged, []string{a, b, c, d, e}},
		{NotificationResourcesListChanged, []string{a, b, c, d, e}},
		{NotificationResourcesUpdated, []string{a, b, c, d, e}},
		{NotificationRootsListChanged, []string{a, b, c, d}},
		{NotificationElicitationComplete, []string{d}},
		{NotificationTasksStatus, []string{d}},
		{NotificationSubscriptionsAcknowledged, []string{e}},
		{NotificationTasks, nil},
	}
	if len(tests) != len(methodTable) {
		t.Errorf("table test covers %d methods, catalogue has %d", len(tests), len(methodTable))
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			m, ok := LookupMethod(tt.method)
			if !ok {
				t.Fatalf("LookupMethod(%q) not found", tt.method)
			}
			var got []string
			for _, r := range Revisions {
				if m.In(r) {
					got = append(got, short[r])
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("revisions mismatch (-want +got):\n%s", d)
			}
			// Removed must be the first revision after the last one it is in.
			if len(m.Revisions) > 0 && m.Revisions[len(m.Revisions)-1] != Latest {
				if m.Removed == "" {
					t.Errorf("Removed empty for a method absent from %s", Latest)
				}
			} else if m.Removed != "" {
				t.Errorf("Removed = %q for a method present in %s", m.Removed, Latest)
			}
		})
	}
}

func TestMethodFlags(t *testing.T) {
	var cacheable, paginated, inputRequired, deprecated, inputOnly, named []string
	for _, m := range AllMethods() {
		if m.Cacheable {
			cacheable = append(cacheable, m.Name)
		}
		if m.Paginated {
			paginated = append(paginated, m.Name)
		}
		if m.MayRequireInput {
			inputRequired = append(inputRequired, m.Name)
		}
		if m.Deprecated != "" {
			deprecated = append(deprecated, m.Name)
		}
		if m.AsInputRequestIn(Rev20260728) {
			inputOnly = append(inputOnly, m.Name)
		}
		if m.NameHeaderFrom != "" {
			named = append(named, m.Name+"="+m.NameHeaderFrom)
		}
	}
	check := func(what string, want, got []string) {
		t.Helper()
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", what, d)
		}
	}
	// DIGEST §6.
	check("cacheable", []string{"prompts/list", "resources/list", "resources/read", "resources/templates/list", "server/discover", "tools/list"}, cacheable)
	// DIGEST §5.4 plus legacy tasks/list.
	check("paginated", []string{"prompts/list", "resources/list", "resources/templates/list", "tasks/list", "tools/list"}, paginated)
	// MRTR-ALLOWED-METHODS.
	check("input_required", []string{"prompts/get", "resources/read", "tools/call"}, inputRequired)
	// DIGEST §10.
	check("deprecated", []string{"notifications/message", "roots/list", "sampling/createMessage"}, deprecated)
	// MRTR-VALUE-TYPES.
	check("input request only", []string{"elicitation/create", "roots/list", "sampling/createMessage"}, inputOnly)
	// HDR-MCP-NAME.
	check("Mcp-Name", []string{"prompts/get=params.name", "resources/read=params.uri", "tasks/cancel=params.taskId", "tasks/get=params.taskId", "tasks/update=params.taskId", "tools/call=params.name"}, named)

	var ext []string
	for _, m := range ExtensionMethods(ExtTasks) {
		ext = append(ext, m.Name)
	}
	check("tasks extension", []string{"notifications/tasks", "tasks/cancel", "tasks/get", "tasks/update"}, ext)
}

// TestMethodsAgainstSchema compares the catalogue with the method consts of
// each schema.json. testdata/schemamethods/<rev>.txt lists every
// properties.method.const of the revision's schema; regenerate it from
// ../shared/spec/schema when a schema changes. In 2026-07-28 the schema
// also defines the MRTR input-request methods, which are not real messages.
func TestMethodsAgainstSchema(t *testing.T) {
	for _, r := range Revisions {
		t.Run(string(r), func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "schemamethods", string(r)+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Fields(string(b))
			var got []string
			for _, m := range AllMethods() {
				if m.In(r) || m.AsInputRequestIn(r) {
					got = append(got, m.Name)
				}
			}
			slices.Sort(want)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("methods of %s mismatch (-schema +catalogue):\n%s", r, d)
			}
		})
	}
}

func TestLookupMethodUnknown(t *testing.T) {
	for _, name := range []string{"", "TOOLS/CALL", "tools/call ", "foo/bar"} {
		if _, ok := LookupMethod(name); ok {
			t.Errorf("LookupMethod(%q) found, want not found", name)
		}
	}
}

func TestLookupMethodIsCopy(t *testing.T) {
	m, _ := LookupMethod(MethodToolsList)
	m.Revisions[0] = "x"
	m2, _ := LookupMethod(MethodToolsList)
	if m2.Revisions[0] != Rev20241105 {
		t.Errorf("caller modified the catalogue")
	}
}

func TestMethodsIn(t *testing.T) {
	var got []string
	for _, m := range MethodsIn(Rev20260728) {
		got = append(got, m.Name)
	}
	want := []string{
		"completion/complete", "notifications/cancelled", "notifications/message", "notifications/progress",
		"notifications/prompts/list_changed", "notifications/resources/list_changed", "notifications/resources/updated",
		"notifications/subscriptions/acknowledged", "notifications/tools/list_changed",
		"prompts/get", "prompts/list", "resources/list", "resources/read", "resources/templates/list",
		"server/discover", "subscriptions/listen", "tools/call", "tools/list",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("MethodsIn(26) mismatch (-want +got):\n%s", d)
	}
}
