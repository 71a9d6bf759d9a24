package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// ListResult is one enumeration of a paginated list.
type ListResult struct {
	// Pages are the raw results, in order.
	Pages []json.RawMessage
	// Responses are the responses the pages came in (HTTP status, headers).
	Responses []*Response
	// Err says why the list was not enumerated to its end; Pages then
	// holds what was read before.
	Err *snapshot.SectionError
	// Fatal is the underlying Go error when the connection itself failed
	// (timeout, exit); it is also summarised in Err.
	Fatal error
}

// List enumerates a paginated list method (tools/list, resources/list,
// resources/templates/list, prompts/list) to its end. An empty-string
// cursor is a valid cursor: only an absent nextCursor ends the list. A
// cursor seen before is a loop, and more than the page cap is runaway
// pagination; both stop the enumeration with a SectionError.
func (c *Client) List(ctx context.Context, method string) *ListResult {
	lr := &ListResult{}
	seen := map[string]bool{}
	var cursor *string
	for page := 0; ; page++ {
		if page >= c.opts.PageCap {
			lr.Err = &snapshot.SectionError{Kind: "page_cap", Message: fmt.Sprintf("more than %d pages: stopped (runaway pagination)", c.opts.PageCap)}
			return lr
		}
		params := map[string]any{}
		if cursor != nil {
			params["cursor"] = *cursor
		}
		resp, err := c.Request(ctx, method, params, nil)
		if err != nil {
			lr.Fatal = err
			lr.Err = SectionError(err)
			return lr
		}
		lr.Responses = append(lr.Responses, resp)
		if e := resp.Msg.Error; e != nil {
			kind := "error"
			if e.Code == mcp.CodeMethodNotFound {
				kind = "unsupported"
			}
			lr.Err = &snapshot.SectionError{Kind: kind, Code: int(e.Code), Message: oneLine(e.Message), HTTPStatus: resp.HTTPStatus()}
			return lr
		}
		lr.Pages = append(lr.Pages, resp.Msg.Result)
		if method == mcp.MethodToolsList {
			c.rememberTools(resp.Msg.Result)
		}
		var res struct {
			NextCursor *string `json:"nextCursor"`
		}
		if err := json.Unmarshal(resp.Msg.Result, &res); err != nil {
			lr.Err = &snapshot.SectionError{Kind: "malformed", Message: fmt.Sprintf("%s result is not a JSON object: %v", method, err)}
			return lr
		}
		if res.NextCursor == nil {
			return lr
		}
		if seen[*res.NextCursor] {
			lr.Err = &snapshot.SectionError{Kind: "cursor_loop", Message: fmt.Sprintf("cursor %q came back on page %d: the server's pagination loops", *res.NextCursor, page+1)}
			return lr
		}
		seen[*res.NextCursor] = true
		cursor = res.NextCursor
	}
}

// SectionError summarises a Go error from Request as a SectionError.
func SectionError(err error) *snapshot.SectionError {
	se := &snapshot.SectionError{Kind: "transport", Message: oneLine(err.Error())}
	var he *HTTPError
	switch {
	case isTimeout(err):
		se.Kind = "timeout"
	case errors.As(err, &he):
		se.HTTPStatus = he.Info.Status
		if he.Auth() {
			se.Kind = "auth"
		}
	case isExit(err):
		se.Kind = "exited"
	}
	return se
}
