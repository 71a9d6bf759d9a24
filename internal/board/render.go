package board

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/plural"
)

// StaleAfter is the age after which the page shows a stale-board banner:
// strictly more than 10 days after the board date's UTC midnight.
const StaleAfter = 10 * 24 * time.Hour

// Stale reports whether a board dated date is stale at now.
func Stale(date string, now time.Time) bool {
	d, err := time.Parse("2006-01-02", date)
	if err != nil {
		return true
	}
	return now.Sub(d) > StaleAfter
}

// ReadBoard decodes a board file strictly.
func ReadBoard(b []byte) (*Board, error) {
	var bd Board
	if err := json.Unmarshal(b, &bd); err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	if bd.Rows == nil {
		bd.Rows = []Row{}
	}
	return &bd, nil
}

// statusLabel words a row neutrally: observations, never grades.
func statusLabel(r Row) string {
	switch r.Status {
	case StatusOK:
		if r.Era == "" {
			return "checked"
		}
		return "checked — era: " + r.Era
	case StatusAuthRequired:
		return "not tested (auth required)"
	case StatusRefused:
		return "refused: non-public address"
	}
	return "not tested (unreachable)"
}

// disclosureLabel fills the MUST-level column. A server that was not
// tested has no findings to speak of, so its cell says nothing rather
// than "no MUST-level findings".
func disclosureLabel(r Row) string {
	switch {
	case r.Status != StatusOK:
		return "—"
	case r.MustViolationCount == 0:
		return "no MUST-level findings"
	case r.Publishable:
		return fmt.Sprintf("%s — reported %s, published %s", plural.Count(r.MustViolationCount, "MUST-level finding"), r.ReportedAt, r.PublishedAt)
	}
	return plural.Count(r.MustViolationCount, "MUST-level finding") + " pending disclosure"
}

var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("board").Funcs(template.FuncMap{
		"status": statusLabel, "disclosure": disclosureLabel,
		"join": func(s []string) string {
			if len(s) == 0 {
				return "—"
			}
			return strings.Join(s, ", ")
		},
	}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>mcpward board {{.B.Date}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1f24;background:#fff}
h1{font-size:1.4rem}table{border-collapse:collapse;width:100%}
th,td{border:1px solid #d0d7de;padding:.4rem .6rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}code{font-size:12px;word-break:break-all}
.banner{background:#fff8c5;border:1px solid #d4a72c;padding:.6rem;margin:1rem 0}
.empty{color:#57606a;font-style:italic}details{margin-top:.3rem}
.v-pass{color:#1a7f37}.v-fail{color:#cf222e}.v-warn{color:#9a6700}
nav{margin:-1rem 0 1rem;padding-bottom:.5rem;border-bottom:1px solid #d0d7de}nav a{margin-right:1rem;color:#0969da}
</style></head><body>
{{if .Nav}}<nav id="nav"><strong>mcpward</strong> {{range .Nav}}<a href="{{.Href}}">{{.Text}}</a>{{end}}</nav>{{end}}
<h1>MCP server observations — {{.B.Date}}</h1>
<p>Unauthenticated, read-only observations of public MCP servers (no <code>tools/call</code>, no credentials), made by mcpward {{.B.MCPWardVersion}} at {{.B.GeneratedAt}}. Each row says what was observed and how to reproduce it; it is not a rating.</p>
{{if .Stale}}<div class="banner" id="stale">This board is from {{.B.Date}}, more than 10 days ago: the weekly refresh has not run.</div>{{end}}
{{if not .B.Rows}}<p class="empty" id="empty">No servers on the roster yet.</p>{{else}}
<p><label>Filter: <input id="filter" type="search" placeholder="server name"></label></p>
<table id="rows"><thead><tr><th>server</th><th>status</th><th>versions</th><th>MUST-level</th><th>reproduce</th></tr></thead><tbody>
{{range .B.Rows}}<tr class="row" id="row-{{.Server}}" data-server="{{.Server}}">
<td><strong>{{.Server}}</strong><br><code>{{.URL}}</code>{{if .Notes}}<br>{{.Notes}}{{end}}</td>
<td>{{status .}}{{if .StatusDetail}}<br><small>{{.StatusDetail}}</small>{{end}}</td>
<td>{{join .SupportedVersions}}</td>
<td>{{disclosure .}}
{{if .Assertions}}<details><summary>assertions</summary><ul>{{range .Assertions}}<li class="v-{{.Verdict}}">{{.ID}} [{{.Verdict}}]: {{.Detail}}</li>{{end}}</ul></details>{{end}}
{{if .Findings}}<details><summary>findings</summary><ul>{{range .Findings}}<li>{{.RuleID}} ({{.Subject}}): {{.Message}}</li>{{end}}</ul></details>{{end}}</td>
<td>{{if .Command}}<code>{{.Command}}</code><br>{{end}}<small>checked {{.CheckedAt}}</small></td></tr>
{{end}}</tbody></table>{{end}}
<script>
(function(){var f=document.getElementById('filter');if(!f)return;
f.addEventListener('input',function(){var q=f.value.toLowerCase();
document.querySelectorAll('tr.row').forEach(function(r){r.style.display=r.dataset.server.toLowerCase().indexOf(q)<0?'none':'';});});})();
</script>
</body></html>
`))
})

// Render writes the self-contained HTML page: inline CSS and script, no
// external fetch, every server-provided string escaped by html/template.
func Render(w io.Writer, b *Board, now time.Time) error {
	return RenderNav(w, b, now, nil)
}

// A Link is one entry of the navigation bar a page embedding the board
// puts at its top.
type Link struct {
	Text, Href string
}

// RenderNav is Render with a navigation bar of links at the top, so the
// board shown inside a site or `mcpward serve` keeps that site's
// navigation. The inline style and script are Render's (their hashes do
// not change).
func RenderNav(w io.Writer, b *Board, now time.Time, nav []Link) error {
	return page().Execute(w, struct {
		B     *Board
		Stale bool
		Nav   []Link
	}{b, len(b.Rows) > 0 && Stale(b.Date, now) || len(b.Rows) == 0 && b.Date != "" && Stale(b.Date, now), nav})
}
