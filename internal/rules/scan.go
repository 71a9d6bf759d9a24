package rules

// GroupScan holds the rules of `mcpward scan`: what a server offers a
// model, judged against published attack classes (tool poisoning,
// shadowing, rug pulls, toxic flows), not against a clause of the
// protocol. None is a violation: the protocol lets a description say
// anything, so a finding is risky (a reviewer decides) or info.
const GroupScan = "scan"

// Published attack classes the scan rules rest on (Rule.Source).
const (
	srcPoisoning = "tool poisoning (Invariant Labs, 2025-04; Trail of Bits, line jumping, 2025-04)"
	srcInvisible = "ASCII smuggling with Unicode tag and zero-width characters (Embrace The Red, 2024-01), Trojan Source bidi controls (CVE-2021-42574)"
	srcHomoglyph = "confusable identifiers (Unicode UTS #39, confusable detection)"
	srcShadowing = "tool shadowing across servers (Invariant Labs, 2025-04)"
	srcFlow      = "the lethal trifecta: untrusted content, private data and an outbound channel in one agent (S. Willison, 2025-06); the GitHub MCP exploit (Invariant Labs, 2025-05)"
	srcSecret    = "credentials leaked in published metadata (CWE-798, hard-coded credentials)"
	srcResult    = "indirect prompt injection through tool results (Greshake et al., 2023)"
)

// scanCatalogue holds the scan rules (internal/scan judges them).
var scanCatalogue = []Rule{
	{ID: "scan.instruction", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Traffic: true, Section: "§5.1", Source: srcPoisoning,
		Summary: "a text field of a tool definition (description, title, parameter description, default, enum, schema description) addresses the model with instructions: an override of earlier instructions, an order to the assistant, or an order scoped to other tools or the whole session"},
	{ID: "scan.secrecy", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Traffic: true, Section: "§5.1", Source: srcPoisoning,
		Summary: "a tool definition asks the model to keep something from the user (\"do not tell the user\", \"keep this secret\", \"hide this step\")"},
	{ID: "scan.instruction_marker", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Traffic: true, Section: "§5.1", Source: srcPoisoning,
		Summary: "a tool definition carries a prompt-injection marker (<IMPORTANT>, [SYSTEM], <instructions>, a chat-template token such as <|im_start|>, a JSON \"role\": \"system\") used to address the model: an order, an override or an address follows it, or the text gives an instruction",
		Note:    "a description that documents a marker (a template's <system> section, the special tokens a tokenizer counts) is not flagged"},
	{ID: "scan.sensitive_request", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Traffic: true, Section: "§5.1", Source: srcPoisoning,
		Summary: "a tool definition asks for private data (~/.ssh, .env, cloud credentials, client configs, other tools' data, the conversation, the user's secrets) to be read or passed in a parameter, or makes such a file the default of a parameter it attaches, uploads or sends",
		Note:    "a sentence that forbids it (\"never paste your .env file here\") is not a request"},
	{ID: "scan.invisible_text", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Traffic: true, Section: "§5.1", Source: srcInvisible,
		Summary: "a field holds characters a reader does not see: Unicode tag characters outside an emoji tag sequence, zero-width characters outside an emoji ZWJ sequence, bidi controls, variation selectors used as a payload",
		Note:    "the evidence spells the hidden characters out (tag characters decoded to the ASCII they stand for)"},
	{ID: "scan.hidden_whitespace", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Traffic: true, Section: "§5.1", Source: srcPoisoning,
		Summary: "a field hides content after a long run of whitespace (any Unicode whitespace, a space weighing 1 and a tab or line break 4, 32 or more in all), past what a client's one-line view shows"},
	{ID: "scan.homoglyph_name", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Traffic: true, Section: "§5.1", Source: srcHomoglyph,
		Summary: "a tool name reads as another (UTS #39 skeleton, with the ASCII look-alikes 0/o, 1/l, I/l, rn/m, vv/w): with several servers, a name confusable with another server's tool (same skeleton, different name), which it names; alone, a name mixing Latin letters with look-alikes from another script, or written in full-width forms"},
	{ID: "scan.shadowing.duplicate_name", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Section: "§5.1", Source: srcShadowing,
		Summary: "two servers of one client config offer a tool of the same name: the client cannot tell which one the model meant"},
	{ID: "scan.shadowing.mentions_other_server", Group: GroupScan, Level: MAY, Class: Info, On: OnAny, Section: "§5.1", Source: srcShadowing,
		Summary: "a tool's definition names a tool of another server of the same client config without telling the model how to use it (a pointer such as \"can be shared with send_email\")",
		Note:    "info: reported so that a reviewer sees every cross-server mention, but a pointer to another tool is not an attack; only compound names (read_file, getUser) count, so a bare word such as \"fetch\" is not a mention"},
	{ID: "scan.shadowing.steers_other_server", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Section: "§5.1", Source: srcShadowing,
		Summary: "a tool's definition names a tool of another server of the same client config and, in that sentence or the next, steers it: an order about it (always, must, should be called with), a replacement (instead of), a claim that it is broken or deprecated, or an override of the user (regardless of the user's input), in English or nine other languages",
		Note:    "one server's words steering another server's tool, the shadowing attack; the evidence is the sentence that names the tool and the next"},
	{ID: "scan.toxic_flow", Group: GroupScan, Level: MAY, Class: Info, On: OnAny, Section: "§5.1", Source: srcFlow,
		Summary: "one client config reaches a source of untrusted content, private data and an outbound sink: an injection in the first can send the second out through the third (the tools of each role are named)",
		Note:    "info, since most real configs have one: select it with --fail-on info or --fail-on scan.toxic_flow; roles come from the annotations, the heuristic's verbs and the tools' words"},
	{ID: "scan.secret", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Traffic: true, Section: "§5.1", Source: srcSecret,
		Summary: "a description, default, enum or example holds what looks like a live credential (a well-known key format with enough entropy, a private key block, a JWT with claims, a password in a URL), not a placeholder; Stripe test and publishable keys are not secrets",
		Note:    "the evidence shows the key's kind and its first characters only"},
	{ID: "scan.result_instruction", Group: GroupScan, Level: SHOULD, Class: Risky, On: OnAny, Traffic: true, Section: "§5.1", Source: srcResult,
		Summary: "a tool result's text addresses the model with instructions (to call another tool, to send data out, to keep it from the user)",
		Note:    "judged on live traffic (the shim, the HTTP proxy, sessions check): mcpward scan itself never calls a tool"},
}
