package wrap

import (
	"reflect"
	"testing"
)

func TestLaunches(t *testing.T) {
	doc := []byte(`{
  // a comment, as VS Code allows
  "mcpServers": {
    "weather": {"command": "npx", "args": ["-y", "@acme/weather"], "env": {"B": "2", "A": "1"}},
    "remote": {"url": "https://mcp.example.com/mcp"},
    "bare": {"command": "srv"}
  }
}`)
	got, err := Launches(doc, Target{Containers: [][]string{{"mcpServers"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Launch{
		{Name: "bare", Command: "srv"},
		{Name: "remote", Remote: true},
		{Name: "weather", Command: "npx", Args: []string{"-y", "@acme/weather"}, Env: []string{"A=1", "B=2"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if _, err := Launches([]byte(`{"mcpServers": {"x": {"command": "a", "env": {"K": 1}}}}`), Target{Containers: [][]string{{"mcpServers"}}}); err == nil {
		t.Error("a non-string env value was accepted")
	}
}
