package report

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/result"
)

// TestSchemaDoc keeps docs/result-schema.md in step with the Go type: every
// JSON member of result.Result (at any depth) is documented as `name`, and
// the example reads as a valid Result.
func TestSchemaDoc(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "result-schema.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			if f.Anonymous {
				walk(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if !strings.Contains(doc, "| `"+name+"` |") {
				t.Errorf("docs/result-schema.md does not document %s.%s (`%s`)", ty.Name(), f.Name, name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(result.Result{}))

	_, rest, ok := strings.Cut(doc, "## Example\n\n```json\n")
	if !ok {
		t.Fatal("no example")
	}
	example, _, _ := strings.Cut(rest, "```")
	if _, err := ReadResult([]byte(example)); err != nil {
		t.Errorf("the documented example is not a valid Result: %v", err)
	}
}
