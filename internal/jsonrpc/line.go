package jsonrpc

import (
	"bufio"
	"errors"
	"io"
)

// ErrLineTooLong is returned by [LineReader.ReadLine] for a line longer than
// MaxLine. The reader skips the rest of that line and can go on reading.
var ErrLineTooLong = errors.New("line too long")

// A LineReader splits a byte stream into newline-delimited frames, as the
// stdio transport frames JSON-RPC messages. Unlike bufio.Scanner it has no
// line-length limit unless MaxLine is set: a 100 MB line is one frame.
//
// A LineReader is not safe for concurrent use.
type LineReader struct {
	br *bufio.Reader

	// MaxLine caps the length of a returned line in bytes; 0 means no cap.
	MaxLine int
}

// NewLineReader returns a LineReader reading from r.
func NewLineReader(r io.Reader) *LineReader {
	return newLineReaderSize(r, 64<<10)
}

func newLineReaderSize(r io.Reader, size int) *LineReader {
	return &LineReader{br: bufio.NewReaderSize(r, size)}
}

// ReadLine returns the next line without its "\n" and without one "\r"
// before it (or at the end of the stream). The returned slice is freshly
// allocated and owned by the caller. Empty lines are returned as empty
// slices. A last line without a newline is returned before io.EOF. On
// another read error, a partial line is discarded and the error returned.
//
// If MaxLine is set and a line is longer, ReadLine reads past the rest of
// it and returns ErrLineTooLong with the line's first MaxLine bytes.
func (r *LineReader) ReadLine() ([]byte, error) {
	var (
		full  [][]byte // copies of full buffers, as bufio.Reader.ReadBytes does
		total int
		over  bool
	)
	for {
		frag, err := r.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !over {
				if r.MaxLine > 0 && total+len(frag) > r.MaxLine {
					frag = frag[:r.MaxLine-total]
					over = true
				}
				full = append(full, append([]byte(nil), frag...))
				total += len(frag)
			}
			continue
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		if err == io.EOF && total == 0 && len(frag) == 0 {
			return nil, io.EOF
		}
		// frag is the final fragment, with its "\n" unless at EOF.
		if n := len(frag); n > 0 && frag[n-1] == '\n' {
			frag = frag[:n-1]
		}
		if !over && r.MaxLine > 0 && total+len(frag) > r.MaxLine {
			frag = frag[:r.MaxLine-total]
			over = true
		} else if over {
			frag = nil
		}
		line := make([]byte, total+len(frag))
		n := 0
		for _, f := range full {
			n += copy(line[n:], f)
		}
		copy(line[n:], frag)
		if over {
			return line, ErrLineTooLong
		}
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		return line, nil
	}
}
