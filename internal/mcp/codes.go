package mcp

// JSON-RPC and MCP error codes (DIGEST §9).
const (
	CodeParseError     int64 = -32700
	CodeInvalidRequest int64 = -32600
	CodeMethodNotFound int64 = -32601
	CodeInvalidParams  int64 = -32602
	CodeInternalError  int64 = -32603

	// CodeResourceNotFound is legacy only (≤ 2025-11-25); modern servers
	// answer -32602 instead.
	CodeResourceNotFound int64 = -32002
	// CodeHeaderMismatch: an HTTP header is missing, malformed or disagrees
	// with the body (2026-07-28).
	CodeHeaderMismatch int64 = -32020
	// CodeMissingClientCapability: the request needs a client capability it
	// did not declare (2026-07-28).
	CodeMissingClientCapability int64 = -32021
	// CodeUnsupportedProtocolVersion: the requested version is not served
	// (2026-07-28).
	CodeUnsupportedProtocolVersion int64 = -32022
	// CodeURLElicitationRequired is 2025-11-25 only.
	CodeURLElicitationRequired int64 = -32042
)

// Codes used by pre-release drafts of 2026-07-28 for what became -32020,
// -32021 and -32022. A server emitting them probably follows a draft.
const (
	CodeDraftHeaderMismatch             int64 = -32001
	CodeDraftMissingClientCapability    int64 = -32003
	CodeDraftUnsupportedProtocolVersion int64 = -32004
)

var codeNames = map[int64]string{
	CodeParseError:                 "ParseError",
	CodeInvalidRequest:             "InvalidRequest",
	CodeMethodNotFound:             "MethodNotFound",
	CodeInvalidParams:              "InvalidParams",
	CodeInternalError:              "InternalError",
	CodeResourceNotFound:           "ResourceNotFound",
	CodeHeaderMismatch:             "HeaderMismatch",
	CodeMissingClientCapability:    "MissingRequiredClientCapability",
	CodeUnsupportedProtocolVersion: "UnsupportedProtocolVersion",
	CodeURLElicitationRequired:     "URLElicitationRequired",
}

// ErrorCodeName returns the spec's name for a code, or "" if it has none.
func ErrorCodeName(code int64) string { return codeNames[code] }

// IsModernError reports whether code is one only a modern server sends.
// Era detection keys on these: such a reply proves the server is modern.
func IsModernError(code int64) bool {
	return code == CodeHeaderMismatch || code == CodeMissingClientCapability || code == CodeUnsupportedProtocolVersion
}

// IsDraftCode reports whether code is a pre-release draft number for one of
// the modern errors (-32001, -32003, -32004); see DIGEST §9.
func IsDraftCode(code int64) bool {
	return code == CodeDraftHeaderMismatch || code == CodeDraftMissingClientCapability || code == CodeDraftUnsupportedProtocolVersion
}

// IsReservedUndefined reports whether code lies in the reserved range
// -32020…-32099 without being defined there (ERR-RESERVED-RANGE). -32042
// is excluded because 2025-11-25 defines it.
func IsReservedUndefined(code int64) bool {
	if code > -32020 || code < -32099 {
		return false
	}
	return !IsModernError(code) && code != CodeURLElicitationRequired
}
