package overlays

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpward/mcpward/internal/tui/styles"
)

// maxPretty bounds the bytes pretty-printed in the inspector; the rest is
// cut (the frame is in the log, and `y` copies it whole).
const maxPretty = 1 << 20

// PrettyJSON indents raw JSON and returns styled and plain lines, each
// prefixed with a line number. Non-JSON text is shown as is.
func PrettyJSON(st *styles.Styles, raw []byte) (styled, plain []string) {
	cut := false
	if len(raw) > maxPretty {
		raw, cut = raw[:maxPretty], true
	}
	var buf bytes.Buffer
	text := string(raw)
	if json.Valid(raw) && json.Indent(&buf, raw, "", "  ") == nil {
		text = buf.String()
	}
	lines := strings.Split(text, "\n")
	if cut {
		lines = append(lines, "… (cut at 1 MiB; y copies the whole frame)")
	}
	w := len(fmt.Sprint(len(lines)))
	for i, l := range lines {
		no := fmt.Sprintf("%*d ", w, i+1)
		plain = append(plain, no+l)
		styled = append(styled, st.LineNo.Render(no)+colour(st, l))
	}
	return styled, plain
}

// colour styles one line of indented JSON: keys, strings, numbers and
// literals.
func colour(st *styles.Styles, l string) string {
	if st.NoColor {
		return l
	}
	var b strings.Builder
	for i := 0; i < len(l); {
		c := l[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(l) && l[j] != '"' {
				if l[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(l))
			s := l[i:j]
			rest := strings.TrimLeft(l[j:], " ")
			if strings.HasPrefix(rest, ":") {
				b.WriteString(st.JSONKey.Render(s))
			} else {
				b.WriteString(st.JSONString.Render(s))
			}
			i = j
		case c == '-' || (c >= '0' && c <= '9'):
			j := i + 1
			for j < len(l) && strings.IndexByte("0123456789.eE+-", l[j]) >= 0 {
				j++
			}
			b.WriteString(st.JSONNumber.Render(l[i:j]))
			i = j
		case strings.HasPrefix(l[i:], "true") || strings.HasPrefix(l[i:], "null"):
			b.WriteString(st.JSONLiteral.Render(l[i : i+4]))
			i += 4
		case strings.HasPrefix(l[i:], "false"):
			b.WriteString(st.JSONLiteral.Render(l[i : i+5]))
			i += 5
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}
