package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/result"
)

// ErrNotResult means the input is not a mcpward Result at all (another
// JSON document, or not JSON). ReadResult's errors also carry
// fault.ErrInput.
var ErrNotResult = errors.New("not a mcpward result")

// A NewerSchemaError means the Result was written by a newer mcpward, with
// a schema version this one does not know.
type NewerSchemaError struct {
	Got, Max int
}

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("result schemaVersion %d is newer than this mcpward reads (%d): upgrade mcpward", e.Got, e.Max)
}

// ReadResult decodes a saved Result strictly: it must be one JSON object
// with "tool": "mcpward", a positive integer schemaVersion no newer than
// [result.SchemaVersion], a command, no member the schema does not define,
// and nothing after it. Every error is marked fault.Input.
func ReadResult(data []byte) (*result.Result, error) {
	var head struct {
		Tool          *string          `json:"tool"`
		SchemaVersion *json.RawMessage `json:"schemaVersion"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fault.Input(fmt.Errorf("%w: %v", ErrNotResult, err))
	}
	if head.Tool == nil || *head.Tool != "mcpward" || head.SchemaVersion == nil {
		return nil, fault.Input(fmt.Errorf("%w: no \"tool\": \"mcpward\" and \"schemaVersion\"", ErrNotResult))
	}
	var version int
	if err := json.Unmarshal(*head.SchemaVersion, &version); err != nil || version < 1 {
		return nil, fault.Input(fmt.Errorf("%w: schemaVersion %s is not a positive integer", ErrNotResult, *head.SchemaVersion))
	}
	if version > result.SchemaVersion {
		return nil, fault.Input(&NewerSchemaError{Got: version, Max: result.SchemaVersion})
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r result.Result
	if err := dec.Decode(&r); err != nil {
		return nil, fault.Input(fmt.Errorf("invalid mcpward result: %w", err))
	}
	if r.Command == "" {
		return nil, fault.Input(errors.New("invalid mcpward result: no command"))
	}
	if r.ExitCode < result.Clean || r.ExitCode > result.Internal {
		return nil, fault.Input(fmt.Errorf("invalid mcpward result: exitCode %d is not one of mcpward's (0-5)", r.ExitCode))
	}
	return &r, nil
}
