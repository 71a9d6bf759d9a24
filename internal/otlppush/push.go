package otlppush

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// MaxPushBytes bounds one request of PushTraces: OpenTelemetry
// Collector's HTTP receivers refuse bodies above their
// max_request_body_size, 20 MiB unless configured.
const MaxPushBytes = 4 << 20

// PushTraces sends an OTLP JSON ExportTraceServiceRequest (the output of
// `sessions export -T otlp`) to the collector of opts.Endpoint, split at
// resourceSpans elements into requests of at most MaxPushBytes (an element
// larger than that goes alone), each retried as the live exporter's
// batches are. It returns the number of requests the collector accepted.
func PushTraces(ctx context.Context, opts *Options, body []byte) (int, error) {
	e, err := configure(opts)
	if err != nil {
		return 0, err
	}
	var doc struct {
		ResourceSpans []json.RawMessage `json:"resourceSpans"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return 0, fmt.Errorf("otlp push: not an OTLP JSON trace request: %w", err)
	}
	sent := 0
	var req []byte
	flush := func() error {
		if req == nil {
			return nil
		}
		req = append(req, "]}"...)
		if err := e.post(ctx, e.url, req); err != nil {
			return err
		}
		sent++
		req = nil
		return nil
	}
	for _, el := range doc.ResourceSpans {
		if req != nil && len(req)+len(el)+3 > MaxPushBytes {
			if err := flush(); err != nil {
				return sent, err
			}
		}
		if req == nil {
			req = append(make([]byte, 0, min(MaxPushBytes, len(body))+2), `{"resourceSpans":[`...)
		} else {
			req = append(req, ',')
		}
		req = append(req, bytes.TrimSpace(el)...)
	}
	if err := flush(); err != nil {
		return sent, err
	}
	return sent, nil
}
