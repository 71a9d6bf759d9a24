package sessionlog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoop"
	"github.com/mcpward/mcpward/internal/session"
)

// A Format is the format of a session log file.
type Format string

// Formats a session log is read in.
const (
	FormatMcpward  Format = "mcpward"
	FormatMcpsnoop Format = "mcpsnoop"
)

// maxProblems bounds the skipped lines a read keeps (as session.Reader).
const maxProblems = 100

// Detect tells the format of the log br is at, from its first record,
// without consuming anything. It is the one place the format is decided:
// every reader of logs goes through ReadFrom or Normalize, which call it.
func Detect(br *bufio.Reader) Format {
	for n := 512; ; n *= 2 {
		n = min(n, br.Size())
		head, err := br.Peek(n)
		if start := bytes.TrimLeft(head, " \t\r\n"); err != nil || n == br.Size() || bytes.IndexByte(start, '\n') >= 0 {
			if mcpsnoop.Sniff(head) {
				return FormatMcpsnoop
			}
			return FormatMcpward
		}
	}
}

// lines reads a log line by line, bounded by session.MaxLine, counting
// lines from 1.
type lines struct {
	br      *bufio.Reader
	buf     []byte
	n       int
	maxLine int
}

// next returns the next line without its "\n" (and a "\r" before it is
// kept: the decoder's JSON syntax check treats it as white space).
// terminated tells whether "\n" ended it; tooLong that it was longer than
// maxLine and dropped. err is io.EOF after the last line.
func (l *lines) next() (line []byte, terminated, tooLong bool, err error) {
	l.buf = l.buf[:0]
	for {
		chunk, e := l.br.ReadSlice('\n')
		if !tooLong {
			if len(l.buf)+len(chunk) > l.maxLine+1 {
				tooLong, l.buf = true, l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case e == nil:
			l.n++
			if tooLong {
				return nil, true, true, nil
			}
			return l.buf[:len(l.buf)-1], true, false, nil
		case errors.Is(e, bufio.ErrBufferFull):
			continue
		case len(l.buf) == 0 && !tooLong:
			return nil, false, false, e
		default:
			l.n++
			if e == io.EOF {
				e = nil
			}
			return l.buf, false, tooLong, e
		}
	}
}

// readMcpsnoop reads an mcpsnoop log: every line is converted to a record
// by mcpsnoop.Decoder. Lines that are not records are skipped and
// reported like those of an mcpward log (an unterminated last line as
// torn), never ending the read: mcpsnoop itself aborted on a torn tail.
func readMcpsnoop(br *bufio.Reader, name string, add func(rec *session.Record, line int)) ([]session.LineError, int, error) {
	ls := &lines{br: br, maxLine: session.MaxLine}
	dec := mcpsnoop.NewDecoder()
	ro := mcpsnoop.NewReorder(add)
	defer ro.Flush()
	var problems []session.LineError
	skipped := 0
	report := func(e session.LineError) {
		skipped++
		if len(problems) < maxProblems {
			problems = append(problems, e)
		}
	}
	for {
		line, terminated, tooLong, err := ls.next()
		if err == io.EOF {
			return problems, skipped, nil
		}
		if err != nil {
			return problems, skipped, fault.Input(fmt.Errorf("read session log %s: line %d: %w", name, ls.n+1, err))
		}
		switch {
		case tooLong:
			report(session.LineError{Line: ls.n, Torn: !terminated, Err: fmt.Errorf("line longer than %d bytes", session.MaxLine)})
			continue
		case len(bytes.TrimSpace(line)) == 0:
			continue
		}
		rec, derr := dec.Decode(line)
		if derr != nil {
			report(session.LineError{Line: ls.n, Torn: !terminated, Err: fmt.Errorf("mcpsnoop record: %w", derr)})
			continue
		}
		ro.Add(rec, ls.n)
	}
}

// Normalize returns r as an mcpward session log: unchanged when it is one,
// converted record by record when it is an mcpsnoop log (frames spliced
// back verbatim by session.AppendRecord). A line that is not a record is
// passed on as it is, so the reader of the result skips it at the same
// line number. It is for readers that take an io.Reader of mcpward
// records (replay.Find); the rest use ReadFrom.
func Normalize(r io.Reader) io.Reader {
	br := bufio.NewReaderSize(r, 64<<10)
	if Detect(br) != FormatMcpsnoop {
		return br
	}
	return &converter{ls: &lines{br: br, maxLine: session.MaxLine}, dec: mcpsnoop.NewDecoder()}
}

// NormalizeBytes is [Normalize] over a log held in memory: an mcpward log
// is read in place, without Normalize's 64 KiB buffer and copy (the hub
// reads every chunk a live log grows by through it).
func NormalizeBytes(b []byte) io.Reader {
	if !mcpsnoop.Sniff(b) {
		return bytes.NewReader(b)
	}
	return Normalize(bytes.NewReader(b))
}

// A converter is an io.Reader of mcpward records made from an mcpsnoop log.
type converter struct {
	ls  *lines
	dec *mcpsnoop.Decoder
	out []byte
	err error
}

func (c *converter) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		c.fill()
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// fill converts the next line into out (or sets err).
func (c *converter) fill() {
	line, terminated, tooLong, err := c.ls.next()
	if err != nil {
		c.err = err
		return
	}
	c.out = c.out[:0]
	if tooLong {
		// Too long to convert: a line the reader skips as corrupt
		// keeps the line count.
		c.out = append(c.out, "{}\n"...)
		return
	}
	if rec, derr := c.dec.Decode(line); derr == nil {
		c.out = session.AppendRecord(c.out, rec)
		if !terminated {
			c.out = c.out[:len(c.out)-1]
		}
		return
	}
	c.out = append(c.out, line...)
	if terminated {
		c.out = append(c.out, '\n')
	}
}
