package mcpsnoopfiles

import "testing"

// FuzzFromMcpsnoop: any file offered as an mcpsnoop tool baseline is
// converted or refused, never a panic; a converted one has a label and
// distinct, named tools.
func FuzzFromMcpsnoop(f *testing.F) {
	f.Add([]byte(mcpsnoopV2))
	f.Add([]byte(`{"version":2,"server":"s","tools":[{"name":"a"},{"name":"a"}]}`))
	f.Add([]byte(`{"version":9,"server":"s","tools":[]}`))
	f.Add([]byte(`{"server":"","tools":[{"name":""}]}`))
	f.Add([]byte(`{"version":2,"server":"s","tools":[{"name":"t","inputSchema":{"type":"object"},"x":1}]} trailing`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, _, err := Baseline(data)
		if err != nil {
			return
		}
		if b == nil {
			t.Fatal("nil baseline without an error")
		}
	})
}
