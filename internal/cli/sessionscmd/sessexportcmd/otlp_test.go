package sessexportcmd

import (
	"encoding/base64"
	"encoding/hex"
	"testing"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/mcpward/mcpward/internal/session"
)

// TestOTLPDecodesWithOfficialProtos exports a log with a W3C traceparent
// in a request's _meta and decodes the result with the official protos
// (TracesData is wire-compatible with ExportTraceServiceRequest).
func TestOTLPDecodesWithOfficialProtos(t *testing.T) {
	dir := t.TempDir()
	log := sampleLog()
	log = append(append(log[:0:0], log...), '\n') // the torn line becomes a corrupt one
	// A third session with a traced call.
	log = append(log, rec("S3", 1, session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}}`)...)
	log = append(log, rec("S3", 2, session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)...)
	path := dir + "/run.jsonl"
	if err := writeFile(path, log); err != nil {
		t.Fatal(err)
	}
	out, _, err := run(t, dir, path, "-T", "otlp")
	if err != nil {
		t.Fatal(err)
	}
	var req tracepb.TracesData
	if err := protojson.Unmarshal([]byte(out), &req); err != nil {
		t.Fatalf("not OTLP JSON: %v\n%s", err, out)
	}
	spans := 0
	var traced *tracepb.Span
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				spans++
				if sessionOf(rs) == "S3" {
					traced = sp
				}
			}
		}
	}
	// S1: tools/list, tools/call, pending tools/call; S2: pending ping; S3: one call.
	if spans != 5 {
		t.Errorf("%d spans, want 5 (one per call)", spans)
	}
	if traced == nil {
		t.Fatal("no span for S3's call")
	}
	// OTLP JSON ids are hex; protojson reads them as base64 (see
	// internal/otlpspan), so encode back to compare.
	if got := hexOf(traced.TraceId); got != "0af7651916cd43dd8448eb211c80319c" {
		t.Errorf("trace id %s, want the traceparent's", got)
	}
	if got := hexOf(traced.ParentSpanId); got != "b7ad6b7169203331" {
		t.Errorf("parent span %s, want the traceparent's", got)
	}
}

func hexOf(b []byte) string {
	s := base64.StdEncoding.EncodeToString(b)
	if _, err := hex.DecodeString(s); err == nil {
		return s
	}
	return hex.EncodeToString(b)
}

func sessionOf(rs *tracepb.ResourceSpans) string {
	for _, kv := range rs.Resource.GetAttributes() {
		if kv.Key == "mcpward.session.id" {
			return kv.Value.GetStringValue()
		}
	}
	return ""
}
