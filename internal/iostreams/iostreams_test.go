package iostreams

import (
	"os"
	"testing"
)

func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("%s is a character device but not a terminal", os.DevNull)
	}
}

func TestTestStreamsAreNotTTYs(t *testing.T) {
	ios, _, _, _ := Test()
	if ios.IsStdoutTTY() || ios.IsStderrTTY() || ios.IsStdinTTY() || ios.ColorEnabled() {
		t.Error("test streams claim a terminal")
	}
	ios.SetStdoutTTY(true)
	ios.SetColorEnabled(true)
	if !ios.ColorEnabled() {
		t.Error("colour not enabled on a TTY with colour on")
	}
}
