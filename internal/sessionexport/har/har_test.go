package har

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema compiles the HAR 1.2 schema of testdata/har-schema (npm
// har-schema 2.0.0) with format assertions on.
func Schema(t *testing.T, dir string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schema files in %s", dir)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := c.AddResource("https://har.test/"+filepath.Base(f), doc); err != nil {
			t.Fatal(err)
		}
	}
	s, err := c.Compile("https://har.test/har.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestWriterOutputIsValidHAR(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	var out bytes.Buffer
	w := NewWriter(&out, Creator{Name: "mcpward", Version: "test"})
	e := &Entry{Pageref: "s1", StartedDateTime: start.Format(TimeFormat), Time: 12.5,
		Request: Request{Method: "POST", URL: "mcp+stdio://weather/", HTTPVersion: "HTTP/1.1", HeadersSize: -1, BodySize: 10,
			PostData: &PostData{MimeType: "application/json", Text: `{"a":"<b>&"}`}},
		Response: Response{Status: 200, StatusText: "OK", HTTPVersion: "HTTP/1.1", HeadersSize: -1, BodySize: 2,
			Content: Content{Size: 2, MimeType: "application/json", Text: "{}"}},
		Timings: NewTimings(12500 * time.Microsecond)}
	if err := w.Entry(e); err != nil {
		t.Fatal(err)
	}
	pending := &Entry{StartedDateTime: start.Format(TimeFormat),
		Request:  Request{Method: "POST", URL: "http://127.0.0.1:9/mcp?x=1", HTTPVersion: "HTTP/1.1", HeadersSize: -1, BodySize: -1, QueryString: []Header{{"x", "1"}}},
		Response: Response{StatusText: "pending", HTTPVersion: "HTTP/1.1", HeadersSize: -1, BodySize: -1, Content: Content{MimeType: "application/json"}},
		Timings:  NewTimings(0)}
	if err := w.Entry(pending); err != nil {
		t.Fatal(err)
	}
	if err := w.Close([]Page{{StartedDateTime: start.Format(TimeFormat), ID: "s1", Title: "weather", PageTimings: PageTimings{-1, -1}}}); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := Schema(t, "testdata/har-schema").Validate(doc); err != nil {
		t.Errorf("HAR does not validate: %v", err)
	}
	if !strings.Contains(out.String(), `<b>&`) {
		t.Error("bodies were HTML-escaped")
	}
	var back struct {
		Log struct {
			Entries []Entry `json:"entries"`
		} `json:"log"`
	}
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || len(back.Log.Entries) != 2 {
		t.Fatalf("entries = %d, %v", len(back.Log.Entries), err)
	}
}

func TestEmptyLogIsValid(t *testing.T) {
	var out bytes.Buffer
	if err := NewWriter(&out, Creator{Name: "mcpward", Version: "x"}).Close(nil); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := Schema(t, "testdata/har-schema").Validate(doc); err != nil {
		t.Errorf("empty HAR does not validate: %v", err)
	}
}

// TestSchemaRejects proves the schema is wired: an entry without its
// required members and a bad URL fail.
func TestSchemaRejects(t *testing.T) {
	s := Schema(t, "testdata/har-schema")
	for _, bad := range []string{
		`{"log":{"version":"1.2","creator":{"name":"x","version":"y"},"entries":[{}]}}`,
		`{"log":{"version":"1.2","entries":[]}}`,
		`{"log":{"version":"1.2","creator":{"name":"x","version":"y"},"entries":[{"startedDateTime":"yesterday","time":1,"request":{},"response":{},"cache":{},"timings":{"send":0,"wait":0,"receive":0}}]}}`,
	} {
		doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if s.Validate(doc) == nil {
			t.Errorf("schema accepted %s", bad)
		}
	}
}
