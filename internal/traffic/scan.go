package traffic

import (
	"encoding/json"
	"strconv"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/scan"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// The scan rules (internal/scan) on live traffic: every tools/list page
// the checker sees is scanned as the definitions of one server, every
// prompts/list, resources/list and resources/templates/list page with
// the per-text rules, and the
// text of every tools/call result for instructions to the model
// (scan.result_instruction). They only report: the checker runs beside
// the relay (sessions check, the OTLP exporter), never on its path.

// scanToolList scans the tools of one tools/list page, each finding once
// per session (rule, tool, field and evidence).
func (c *Checker) scanToolList(f *calls.Frame, tools []json.RawMessage) {
	defs := make([]snapshot.Object, 0, len(tools))
	for _, raw := range tools {
		var o snapshot.Object
		if json.Unmarshal(raw, &o) == nil {
			defs = append(defs, o)
		}
	}
	sess := f.Record.Session
	for _, fd := range scan.Tools("", defs) {
		if !c.once(sess, "scan\x00"+fd.Rule+"\x00"+fd.Tool+"\x00"+fd.Field+"\x00"+fd.Evidence) {
			continue
		}
		c.reportSubject(sess, fd.Rule, f.Record.Seq, f.Line, "tool "+strconv.Quote(fd.Tool), scanMessage(fd.Field, fd), nil)
	}
}

// scanOtherList scans one page of prompts/list, resources/list or
// resources/templates/list with the per-text rules, each finding once
// per session.
func (c *Checker) scanOtherList(f *calls.Frame, method string, result json.RawMessage) {
	key, kind := "prompts", "prompt"
	switch method {
	case mcp.MethodResourcesList:
		key, kind = "resources", "resource"
	case mcp.MethodResourcesTemplatesList:
		key, kind = "resourceTemplates", "resource template"
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(result, &v) != nil {
		return
	}
	var items []snapshot.Object
	if json.Unmarshal(v[key], &items) != nil {
		return
	}
	var fs []scan.Finding
	switch method {
	case mcp.MethodPromptsList:
		fs = scan.Prompts("", items)
	default:
		fs = scan.Resources("", items, method == mcp.MethodResourcesTemplatesList)
	}
	sess := f.Record.Session
	for _, fd := range fs {
		if !c.once(sess, "scan\x00"+fd.Kind+"\x00"+fd.Rule+"\x00"+fd.Tool+"\x00"+fd.Field+"\x00"+fd.Evidence) {
			continue
		}
		c.reportSubject(sess, fd.Rule, f.Record.Seq, f.Line, kind+" "+strconv.Quote(fd.Tool), scanMessage(fd.Field, fd), nil)
	}
}

// scanCallResult scans the text content of a tools/call result.
func (c *Checker) scanCallResult(f *calls.Frame, call *calls.Call, result json.RawMessage) {
	var v struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(result, &v) != nil {
		return
	}
	where := "tools/call " + strconv.QuoteToASCII(call.Name) + " id " + call.ID + " result"
	for i, ct := range v.Content {
		if ct.Type != "text" || ct.Text == "" {
			continue
		}
		for _, fd := range scan.Result(ct.Text) {
			c.report(f.Record.Session, fd.Rule, f.Record.Seq, f.Line, scanMessage(where+" content["+strconv.Itoa(i)+"]", fd), nil)
		}
	}
}

// scanMessage is a scan finding as one line: where, what, evidence.
func scanMessage(where string, fd scan.Finding) string {
	msg := where + ": " + fd.Message
	if fd.Evidence != "" {
		msg += ": " + strconv.Quote(fd.Evidence)
	}
	return msg
}
