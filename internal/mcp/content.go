package mcp

// Content block types (DIGEST §5.1). tool_use and tool_result appear only
// in sampling messages (2025-11-25 on).
const (
	ContentText         = "text"
	ContentImage        = "image"
	ContentAudio        = "audio"
	ContentResourceLink = "resource_link"
	ContentResource     = "resource"
	ContentToolUse      = "tool_use"
	ContentToolResult   = "tool_result"
)
