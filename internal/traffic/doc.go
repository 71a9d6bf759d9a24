// Package traffic judges recorded MCP traffic against the rule catalogue
// (internal/rules): the JSON-RPC base rules, the 2026-07-28 stateless
// rules, MRTR, subscriptions, cache hints, routing and Mcp-Param headers,
// x-mcp-header validity, schema observations and deprecations. Each
// message is judged by the revision its own request declares (its _meta,
// else its MCP-Protocol-Version header, else what initialize negotiated),
// never by a guess over the whole session.
//
// It is pure: a [Checker] is fed session records and streams findings
// (result.RuleFinding plus the mcpsnoop signal each feeds) to a callback,
// so memory does not grow with the size of the log.
//
//	c := traffic.New(&traffic.Options{File: path, OnFinding: collect})
//	for rec, line := range records {
//		c.Add(rec, line)
//	}
//	c.Finish()
package traffic
