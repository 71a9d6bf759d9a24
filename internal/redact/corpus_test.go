package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// corpusSecrets are planted in the corpus; none may survive redaction, in
// raw or in decoded form.
var corpusSecrets = []string{
	"hunter2", "s3cr3t-value", "tok-998877", "sk-proj-AAAABBBBCCCCDDDDEEEEFFFF",
	"ghp_0123456789abcdefghijklmnopqrstuvwxyz", "xoxp-11112222-33334444", "AKIAIOSFODNN7EXAMPLE",
	"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln", "MIIEowIBAAKCAQEA", "123-45-6789", "acct-4242",
	"pin-0000", "cookieval",
}

var corpus = []string{
	// requests
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"user":"ann","password":"hunter2"}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{"config":{"clientSecret":"s3cr3t-value","nested":[{"accessToken":"tok-998877"}]}}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{"pin":"pin-0000","note":"my ssn is 123-45-6789"}}}`,
	// results
	`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"your key: sk-proj-AAAABBBBCCCCDDDDEEEEFFFF\nand ghp_0123456789abcdefghijklmnopqrstuvwxyz"}],"isError":false}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"account":"acct-4242","aws":"AKIAIOSFODNN7EXAMPLE"}}}`,
	`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"token\":\"tok-998877\",\"ok\":true}"}]}}`,
	`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"-----BEGIN PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END PRIVATE KEY-----"}]}}`,
	// escaped secrets
	`{"jsonrpc":"2.0","id":5,"result":{"text":"k=\u0073k-proj-AAAABBBBCCCCDDDDEEEEFFFF"},"pass\u0077ord":"\u0068unter2"}`,
	`{"jsonrpc":"2.0","id":6,"result":{"v":"Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln"}}`,
	// errors
	`{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"auth failed for token=tok-998877","data":{"apiKey":"s3cr3t-value"}}}`,
	// batches
	`[{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"arguments":{"secret":"s3cr3t-value"}}},{"jsonrpc":"2.0","method":"notifications/x","params":{"cookie":"cookieval"}}]`,
	// SSE bodies and text
	"id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"password\":\"hunter2\"}}\n\n",
	"data:{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"slack xoxp-11112222-33334444\"}}\n\n",
	"server starting, API_KEY=s3cr3t-value, account acct-4242\nCookie: cookieval\n",
	"not json {\"password\": \"hunter2\"",
	// argv in a start record
	`{"argv":["server","--password","hunter2","--api-key=pin-0000","SECRET=s3cr3t-value","-H","Authorization: Bearer tok-998877"],"cwd":"/x"}`,
}

func TestCorpusNoSecretSurvives(t *testing.T) {
	r := mustNew(t, Config{Secrets: true, Keys: []string{"account"}, Values: []string{`\d{3}-\d{2}-\d{4}`, `acct-\d+`}, Paths: []string{"params.arguments.pin"}})
	for _, frame := range corpus {
		got, changed := r.Frame([]byte(frame))
		if !changed {
			t.Errorf("Frame(%q): nothing redacted", frame)
		}
		wasJSON := json.Valid([]byte(frame))
		if wasJSON && !json.Valid(got) {
			t.Errorf("Frame(%q) = %q: no longer valid JSON", frame, got)
		}
		decoded := string(got)
		if wasJSON {
			var v any
			if err := json.Unmarshal(got, &v); err == nil {
				b, _ := json.Marshal(v)
				decoded = string(b)
			}
		}
		for _, s := range corpusSecrets {
			if bytes.Contains(got, []byte(s)) || strings.Contains(decoded, s) {
				t.Errorf("secret %q survived in:\n%s", s, got)
			}
		}
	}
}
