package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// readAll returns every line and the error that ended the reading.
func readAll(t *testing.T, r *LineReader) ([]string, error) {
	t.Helper()
	var lines []string
	for {
		l, err := r.ReadLine()
		if err == io.EOF {
			return lines, nil
		}
		if err != nil {
			return lines, err
		}
		lines = append(lines, string(l))
	}
}

func TestLineReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"one", "a\n", []string{"a"}},
		{"no final newline", "a\nb", []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"cr at eof", "a\r", []string{"a"}},
		{"lone cr kept inside", "a\rb\n", []string{"a\rb"}},
		{"only one cr stripped", "a\r\r\n", []string{"a\r"}},
		{"empty lines", "\n\r\n\n", []string{"", "", ""}},
		{"long", strings.Repeat("x", 100) + "\n" + strings.Repeat("y", 50), []string{strings.Repeat("x", 100), strings.Repeat("y", 50)}},
	}
	for _, tt := range tests {
		for _, small := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				r := NewLineReader(strings.NewReader(tt.in))
				if small {
					r = newLineReaderSize(iotest.OneByteReader(strings.NewReader(tt.in)), 16)
				}
				got, err := readAll(t, r)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(tt.want, got); d != "" {
					t.Errorf("lines mismatch (-want +got):\n%s", d)
				}
			})
		}
	}
}

func TestLineReaderOwnership(t *testing.T) {
	r := newLineReaderSize(strings.NewReader("aaaa\nbbbb\n"), 16)
	first, _ := r.ReadLine()
	second, _ := r.ReadLine()
	if string(first) != "aaaa" || string(second) != "bbbb" {
		t.Errorf("lines = %q, %q; the first was overwritten by the second", first, second)
	}
}

func TestLineReaderMaxLine(t *testing.T) {
	in := strings.Repeat("x", 100) + "\nok\n" + strings.Repeat("z", 40)
	r := newLineReaderSize(strings.NewReader(in), 16)
	r.MaxLine = 30
	l, err := r.ReadLine()
	if !errors.Is(err, ErrLineTooLong) || string(l) != strings.Repeat("x", 30) {
		t.Fatalf("ReadLine = %q, %v; want 30 x and ErrLineTooLong", l, err)
	}
	if l, err := r.ReadLine(); err != nil || string(l) != "ok" {
		t.Fatalf("ReadLine after long line = %q, %v; want ok", l, err)
	}
	if l, err := r.ReadLine(); !errors.Is(err, ErrLineTooLong) || len(l) != 30 {
		t.Fatalf("ReadLine long last line = %d bytes, %v; want 30, ErrLineTooLong", len(l), err)
	}
	if _, err := r.ReadLine(); err != io.EOF {
		t.Fatalf("ReadLine at end = %v, want EOF", err)
	}
}

func TestLineReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	r := NewLineReader(io.MultiReader(strings.NewReader("a\npartial"), iotest.ErrReader(boom)))
	if l, err := r.ReadLine(); err != nil || string(l) != "a" {
		t.Fatalf("ReadLine = %q, %v", l, err)
	}
	if _, err := r.ReadLine(); !errors.Is(err, boom) {
		t.Fatalf("ReadLine = %v, want boom", err)
	}
}

func TestLineReaderHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 200 MB")
	}
	const size = 100 << 20
	in := bytes.Repeat([]byte{'a'}, size+2)
	in[size] = '\r'
	in[size+1] = '\n'
	r := NewLineReader(bytes.NewReader(in))
	l, err := r.ReadLine()
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != size {
		t.Fatalf("len(line) = %d, want %d", len(l), size)
	}
	if _, err := r.ReadLine(); err != io.EOF {
		t.Fatalf("second ReadLine = %v, want EOF", err)
	}
}

func BenchmarkLineReader(b *testing.B) {
	line := append(bytes.Repeat([]byte("x"), 1000), '\n')
	in := bytes.Repeat(line, 1000)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		r := NewLineReader(bytes.NewReader(in))
		for {
			if _, err := r.ReadLine(); err != nil {
				break
			}
		}
	}
}
