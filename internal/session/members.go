package session

// recordMembers is the one list of a record line's members
// (docs/session-log.md), in the order AppendRecordHead writes them: the
// wire name, the Record field it fills and its bit in the fast decoder's
// duplicate check. The case-folding test of the fast decoder reads it.
// The writer (AppendRecordHead), the reference decoder (wireRecord,
// decodeStd) and the fast decoder (decoder.fast) each handle every member
// by hand, for speed; TestRecordMembersAgree fails when Record or one of
// the three disagrees with this table, so a new member is this line plus
// the three places the test names.
var recordMembers = [...]struct {
	name, field string
	bit         uint32
}{
	{"v", "V", mV},
	{"session", "Session", mSession},
	{"label", "Label", mLabel},
	{"seq", "Seq", mSeq},
	{"ts", "Time", mTS},
	{"dir", "Dir", mDir},
	{"transport", "Transport", mTransport},
	{"kind", "Kind", mKind},
	{"exchange", "Exchange", mExchange},
	{"method", "Method", mMethod},
	{"path", "Path", mPath},
	{"status", "Status", mStatus},
	{"mcpSessionId", "MCPSessionID", mMCPSessionID},
	{"authChallenge", "AuthChallenge", mAuthChallenge},
	{"header", "Header", mHeader},
	{"sse", "SSE", mSSE}, // {"event": SSEEvent, "id": SSEID}
	{"error", "Error", mError},
	{"redacted", "Redacted", mRedacted},
	{"info", "Info", mInfo},
	{"size", "Size", mSize},
	{"truncated", "Truncated", mTruncated},
	{"noEOL", "NoEOL", mNoEOL},
	{"frame", "Frame", mFrame},             // valid JSON, spliced
	{"frameText", "Frame", mFrameText},     // other UTF-8
	{"frameBase64", "Frame", mFrameBase64}, // other bytes
}

// derivedFields are the Record fields no member of their own carries: the
// "sse" member's parts, and what the reader derives from the frame.
var derivedFields = []string{"SSEEvent", "SSEID", "HasFrame", "RawFrame"}
