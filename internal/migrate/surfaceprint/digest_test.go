package surfaceprint

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDigestVectors: the test vectors of the reference (§3.1), computed
// with the tool's own functions.
func TestDigestVectors(t *testing.T) {
	vectors := []struct{ name, surface, want string }{
		{"empty", `{}`, "sha256:a9bd5f89fed89f1dabe41fb67296d996dada15d901a5007d036828ab2bd03ca3"},
		{"python json escapes and float repr", `{"tools":[{"name":"t","description":"é<>&\u2028\u0001\"x\\/😀","inputSchema":{"maximum":1.0,"minimum":1e-07,"default":10,"big":1e21,"neg":-0.5,"enum":["b","a","B"],"required":["z","y"]}}]}`,
			"sha256:3c1e058d2d74ab9b9a923f95027145c30212789ded1e6ac360fb545978838976"},
		{"mixed enum stringified", `{"tools":[{"name":"t","description":null,"inputSchema":{"enum":["a",null]}}]}`,
			"sha256:1d8b7c1b93f1af7ced412a26a3c891f0ad30cd0dda87c03aab53aad34eb37523"},
	}
	for _, v := range vectors {
		got, err := Digest(decode(t, v.surface))
		if err != nil || got != v.want {
			t.Errorf("%s: %s, %v; want %s", v.name, got, err, v.want)
		}
	}
	var basic struct {
		Surface        json.RawMessage
		ExpectedDigest string
	}
	b, _ := os.ReadFile(filepath.Join("testdata", "conformance", "canonical", "basic_surface.json"))
	if err := json.Unmarshal(b, &basic); err != nil {
		t.Fatal(err)
	}
	if got, err := Digest(decode(t, string(basic.Surface))); err != nil || got != basic.ExpectedDigest {
		t.Errorf("basic_surface: %s, %v; want %s", got, err, basic.ExpectedDigest)
	}
	toy := decode(t, string(mustRead(t, "snapshots/toy-open.snapshot.json")))
	if got, _ := Digest(toy["surface"].(map[string]any)); got != toy["surfaceDigest"] {
		t.Errorf("toy-open: %s, want the stored %s", got, toy["surfaceDigest"])
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", p))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPyRepr(t *testing.T) {
	for f, want := range map[float64]string{
		1: "1.0", 100: "100.0", 0.1: "0.1", math.Copysign(0, -1): "-0.0", 1e-7: "1e-07", 1e21: "1e+21",
		1.5e300: "1.5e+300", 1e16: "1e+16", 1e15: "1000000000000000.0", 0.0001: "0.0001", 0.00001: "1e-05",
		123456789012345678: "1.2345678901234568e+17", -2.5: "-2.5", 1234.5678: "1234.5678",
	} {
		if got := pyRepr(f); got != want {
			t.Errorf("pyRepr(%v) = %s, want %s", f, got, want)
		}
	}
}
