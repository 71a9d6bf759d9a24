package heuristic

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInflect(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"delete", []string{"delete", "deletes", "deleted", "deleting"}},
		{"drop", []string{"drop", "drops", "dropped", "dropping"}},
		{"run", []string{"run", "runs", "runned", "running"}},
		{"copy", []string{"copy", "copies", "copied", "copying"}},
		{"deploy", []string{"deploy", "deploys", "deployed", "deploying"}},
		{"push", []string{"push", "pushes", "pushed", "pushing"}},
		{"read", []string{"read", "reads", "readed", "reading"}},
		{"list", []string{"list", "lists", "listed", "listing"}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, inflect(tt.in)); d != "" {
			t.Errorf("inflect(%q) mismatch (-want +got):\n%s", tt.in, d)
		}
	}
}

func TestVerbAction(t *testing.T) {
	tests := []struct {
		word, base string
		want       Action
		weak       bool
	}{
		{"Deletes", "delete", ActionDelete, false},
		{"dropped", "drop", ActionDelete, true},
		{"running", "run", ActionExecute, true},
		{"exec", "exec", ActionExecute, false},
		{"sent", "send", ActionSend, false},
		{"message", "message", ActionSend, true},
		{"wrote", "write", ActionWrite, false},
		{"resetting", "reset", ActionDelete, false},
		{"fetching", "fetch", ActionRead, false},
		{"widget", "", ActionNone, false},
		{"address", "", ActionNone, false},
	}
	for _, tt := range tests {
		a, base, weak := VerbAction(tt.word)
		if a != tt.want || base != tt.base || weak != tt.weak {
			t.Errorf("VerbAction(%q) = %q, %q, %v; want %q, %q, %v", tt.word, a, base, weak, tt.want, tt.base, tt.weak)
		}
	}
}

func TestReadIdentifier(t *testing.T) {
	tests := []struct {
		id   string
		want Action
		verb string
	}{
		{"delete", ActionDelete, "delete"},
		{"DELETE", ActionDelete, "delete"},
		{"drop", ActionDelete, "drop"},       // weak, but first
		{"purge_all", ActionDelete, "purge"}, // strong
		{"get_then_delete", ActionDelete, "delete"},
		{"sendEmail", ActionSend, "send"},
		{"exec", ActionExecute, "exec"},
		{"update", ActionWrite, "update"},
		{"list", ActionRead, "list"},
		{"json", ActionNone, ""},
		{"items_clear", ActionNone, ""}, // weak and not first
		{"post", ActionSend, "post"},
	}
	for _, tt := range tests {
		if a, verb := ReadIdentifier(tt.id); a != tt.want || verb != tt.verb {
			t.Errorf("ReadIdentifier(%q) = %q, %q; want %q, %q", tt.id, a, verb, tt.want, tt.verb)
		}
	}
}

func TestReadProperty(t *testing.T) {
	tests := []struct {
		name, desc string
		want       Action
	}{
		{"force_delete", "", ActionDelete},
		{"overwrite", "", ActionDelete},
		{"notify", "", ActionSend},
		{"message", "", ActionNone},         // a noun
		{"dry_run", "", ActionNone},         // weak
		{"include_deleted", "", ActionNone}, // an adjective
		{"archived", "Set to true to include archived items", ActionNone},
		{"cleanup", "Execute this snippet afterwards", ActionExecute},
		{"path", "Delete the source after copying", ActionDelete},
		{"path", "The file to read", ActionNone},
	}
	for _, tt := range tests {
		if a, _ := ReadProperty(tt.name, tt.desc); a != tt.want {
			t.Errorf("ReadProperty(%q, %q) = %q, want %q", tt.name, tt.desc, a, tt.want)
		}
	}
}
