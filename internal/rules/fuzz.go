package rules

// GroupFuzz holds the rules of `mcpward fuzz`: how a server takes frames
// a hostile or sloppy client sends (internal/fuzz judges them). A crash, a
// hang, a zombie or a changed id breaks a MUST of JSON-RPC 2.0 (the
// server MUST reply to a request); which error code a rejection carries
// is, in JSON-RPC 2.0, a table of meanings without a MUST, so a wrong code
// is risky. fuzz also reports stdio.stdout_not_clean,
// stdio.notification_answered, the modern envelope's
// transport.meta_missing_not_32602 / transport.meta_partial_not_32602, and
// the HTTP statuses with a MUST: transport.notification_not_202,
// transport.unknown_method_not_404_32601 and, on legacy HTTP,
// transport.unsupported_version_not_32022.
const GroupFuzz = "fuzz"

// fuzzCatalogue holds the fuzz rules.
var fuzzCatalogue = []Rule{
	{ID: "fuzz.crash", Group: GroupFuzz, Spec: "JSON-RPC 2.0 §4", Level: MUST, Class: Violation, Must: "JSON-RPC 2.0 §4", On: OnAny, Section: "§3.1, §3.2",
		Summary: "after a frame a hostile or sloppy client sends, the server ended (the process exited, or the endpoint refused connections): the well-formed request sent next got no answer",
		Note:    "the evidence is the case's frames, minimised, and how the server ended (exit code or signal); the frame itself needs no answer, the request after it does"},
	{ID: "fuzz.hang", Group: GroupFuzz, Spec: "JSON-RPC 2.0 §4", Level: MUST, Class: Violation, Must: "JSON-RPC 2.0 §4", On: OnAny, Section: "§3.1, §3.2",
		Summary: "a request that must be answered (a string or integer id) got no answer, although a request sent after it was answered; confirmed by a retry that waits 4x longer (at least 3s)",
		Note:    "the wait is 10x the server's median answer time on well-formed requests (at least 1s, at most --timeout) unless --case-timeout is given"},
	{ID: "fuzz.zombie", Group: GroupFuzz, Spec: "JSON-RPC 2.0 §4", Level: MUST, Class: Violation, Must: "JSON-RPC 2.0 §4", On: OnAny, Section: "§3.1, §3.2",
		Summary: "after a frame a hostile or sloppy client sends, the server runs on (its stdin and stdout stay open; over HTTP, the endpoint still accepts connections) but answers nothing: the well-formed request sent next got no answer, or was held open past the timeout; confirmed by a retry that waits 4x longer (at least 3s)",
		Note:    "a server behind --url is not restarted: its zombie is confirmed by a fresh connection and the liveness request alone, and the cases after it are not evaluated"},
	{ID: "fuzz.id_mismatch", Group: GroupFuzz, Spec: "JSON-RPC 2.0 §5", Level: MUST, Class: Violation, Must: "JSON-RPC 2.0 §5", On: OnAny, Section: "§2.1",
		Summary: "a request with a string or integer id was answered with another id (a long string cut, an integer rounded, a string turned into a number)"},
	{ID: "fuzz.batch_unanswered", Group: GroupFuzz, Spec: "2025-03-26 batching, STDIO-NO-BATCH", Level: MUST, Class: Violation, Must: "2025-03-26 batching", On: OnAny, Section: "§10",
		Summary: "a server speaking 2025-03-26 did not answer a JSON-RPC batch (that revision, and only that one, requires receiving batches)",
		Note:    "judged at 2025-03-26 only: batches were removed in 2025-06-18, so a later server that rejects or ignores one is right"},
	{ID: "fuzz.parse_error_code", Group: GroupFuzz, Spec: "JSON-RPC 2.0 §5.1", Level: SHOULD, Class: Risky, On: OnAny, Section: "§9",
		Summary: "a frame that is not JSON was answered with an error other than -32700 (Parse error), or with a result",
		Note:    "JSON-RPC 2.0 §5.1 defines -32700 without a MUST, so risky; silence is accepted (stdio.malformed_input)"},
	{ID: "fuzz.invalid_request_code", Group: GroupFuzz, Spec: "JSON-RPC 2.0 §5.1", Level: SHOULD, Class: Risky, On: OnAny, Section: "§9",
		Summary: "JSON that is not a valid request (no or a wrong jsonrpc member, a method that is not a string, an id that is null, an object or a boolean) was answered with an error other than -32600 (Invalid Request), or with a result",
		Note:    "JSON-RPC 2.0 §5.1 defines -32600 without a MUST, so risky; silence is accepted"},
	{ID: "fuzz.method_not_found_code", Group: GroupFuzz, Spec: "JSON-RPC 2.0 §5.1", Level: SHOULD, Class: Risky, On: OnAny, Section: "§9",
		Summary: "a request for a method the server does not have was answered with an error other than -32601 (Method not found), or with a result",
		Note:    "on modern Streamable HTTP the status is a MUST (HTTP-METHOD-404: 404 with -32601, transport.unknown_method_not_404_32601, which fuzz and compat report)"},
	{ID: "fuzz.invalid_params_code", Group: GroupFuzz, Spec: "JSON-RPC 2.0 §5.1", Level: SHOULD, Class: Risky, On: OnAny, Section: "§9, §5.1",
		Summary: "params of the wrong type or shape (a tools/list cursor that is a number, tools/call of an unknown tool or without a name) were answered with an error other than -32602 (Invalid params), or with a result",
		Note:    "JSON-RPC 2.0 §5.1 and the Tools section (unknown tool: -32602) set no MUST; the modern envelope's -32602 is one (transport.meta_missing_not_32602)"},
	{ID: "fuzz.invalid_args_executed", Group: GroupFuzz, Spec: "JSON-RPC 2.0 §5.1", Level: SHOULD, Class: Risky, On: OnAny, Section: "§5.1",
		Summary: "a tools/call whose arguments break the tool's inputSchema (a required argument missing, the wrong type, out of range, not in the enum, an unknown property where none is allowed) was answered with a result without isError, as if the arguments were valid",
		Note:    "an input-validation failure is a result with isError: true or error -32602; the Tools section sets no MUST for validating arguments, so risky; only tools the plan may call (read-only by both facts, closed world, or --allow-tool) are called"},
}
