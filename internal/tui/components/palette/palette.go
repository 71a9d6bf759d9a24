// Package palette is the `:` command palette: the commands it knows, with
// what each does, narrowed as the user types, and the sessions a typed
// word would open. The root model runs the chosen command; this package
// only lists and matches, so the list the user sees is the list the model
// accepts (a test holds the two together).
package palette

import (
	"strings"

	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/components/table"
)

// A Command is one palette command: its name, other names it answers to,
// its arguments and a line on what it does.
type Command struct {
	Name    string
	Aliases []string
	Args    string
	Desc    string
}

// Commands are the palette's commands, in the order they are listed.
var Commands = []Command{
	{Name: "sessions", Aliases: []string{"session", "s", ".."}, Desc: "back to the sessions table"},
	{Name: "stream", Aliases: []string{"frames"}, Desc: "the frames of the selected session"},
	{Name: "summary", Desc: "tool summary: calls, errors, latency, definition cost"},
	{Name: "caps", Aliases: []string{"capabilities"}, Desc: "capabilities both sides declared"},
	{Name: "export", Args: "[FORMAT] [PATH]", Desc: "write the session (jsonl, json, html, text, har, otlp)"},
	{Name: "help", Aliases: []string{"?"}, Desc: "keys and commands"},
	{Name: "quit", Aliases: []string{"q", "exit"}, Desc: "leave the live view"},
}

// Lookup returns the command a typed word names, by name or alias.
func Lookup(word string) (Command, bool) {
	for _, c := range Commands {
		if c.Name == word {
			return c, true
		}
		for _, a := range c.Aliases {
			if a == word {
				return c, true
			}
		}
	}
	return Command{}, false
}

// Matching returns the commands whose name or an alias starts with the
// first word of input (all of them for empty input).
func Matching(input string) []Command {
	word := ""
	if f := strings.Fields(input); len(f) > 0 {
		word = strings.ToLower(f[0])
	}
	var out []Command
	for _, c := range Commands {
		ok := strings.HasPrefix(c.Name, word)
		for _, a := range c.Aliases {
			ok = ok || strings.HasPrefix(a, word)
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}

// View lists the matching commands and the sessions whose label contains
// the input, in a w×h body.
func View(c common.Common, input string, labels []string, w, h int) string {
	st := c.Styles
	lines := []string{st.TableHeader.Render(table.Fit("COMMAND", 24, false) + " " + "WHAT IT DOES")}
	for _, cmd := range Matching(input) {
		name := cmd.Name
		if cmd.Args != "" {
			name += " " + cmd.Args
		}
		lines = append(lines, table.Fit(st.Bright.Render(name), 24, false)+" "+cmd.Desc)
	}
	q := strings.ToLower(strings.TrimSpace(input))
	var sess []string
	if q != "" {
		for _, l := range labels {
			if strings.Contains(strings.ToLower(l), q) {
				sess = append(sess, l)
			}
		}
	}
	if len(sess) > 0 {
		lines = append(lines, "", st.TableHeader.Render("OPEN SESSION"))
		for _, l := range sess {
			lines = append(lines, "  "+l)
		}
	}
	if len(lines) == 1 && len(sess) == 0 {
		lines = append(lines, st.Faint.Render("no command starts with "+q+", and no session label contains it"))
	}
	lines = append(lines, "", st.Faint.Render("enter runs · esc cancels · any other text opens the first session whose label contains it"))
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = table.Fit(l, w, false)
	}
	return strings.Join(lines, "\n")
}
