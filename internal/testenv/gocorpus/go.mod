module github.com/mcpward/mcpward/internal/testenv/gocorpus

go 1.26.8

tool (
	github.com/ThinkInAIXYZ/go-mcp/examples/current_time_server
	github.com/ThinkInAIXYZ/go-mcp/examples/everything
	github.com/mark3labs/mcp-go/examples/conformance
	github.com/mark3labs/mcp-go/examples/everything
	github.com/mark3labs/mcp-go/examples/structured_input_and_output
	github.com/mark3labs/mcp-go/examples/typed_tools
	github.com/modelcontextprotocol/go-sdk/examples/server/everything
	github.com/modelcontextprotocol/go-sdk/examples/server/memory
	github.com/modelcontextprotocol/go-sdk/examples/server/sequentialthinking
	github.com/modelcontextprotocol/go-sdk/examples/server/toolschemas
)

require (
	github.com/ThinkInAIXYZ/go-mcp v0.2.20 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mark3labs/mcp-go v1.2.1 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	github.com/orcaman/concurrent-map/v2 v2.0.1 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/tidwall/gjson v1.18.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
