package proxy

import (
	"io"
	"os"
)

// The ways a stream relay moves bytes (RelayResult.Path, and the start
// record's "relay").
const (
	// PathSplice moves the bytes from src to dst inside the kernel
	// (splice(2)); the recorder's copy is taken with tee(2) and read once.
	PathSplice = "splice"
	// PathCopy reads into user space and writes from there: every system,
	// every kind of reader and writer.
	PathCopy = "copy"
)

// RelayMode chooses the path of the stdio relays (StdioOptions.Relay).
type RelayMode string

const (
	// RelayAuto (the zero value) splices wherever the system and both
	// ends allow it, where proxybench showed that to beat the copy path
	// (see useSplice), and copies elsewhere.
	RelayAuto RelayMode = ""
	// RelayCopy always copies.
	RelayCopy RelayMode = PathCopy
	// RelaySplice splices wherever the system and both ends allow it.
	RelaySplice RelayMode = PathSplice
)

// A GatedReader is a reader whose first read waits for something (the
// session log file being opened, in the shim): a relay that reads the
// file under it directly (splice) calls Gate first, and treats a non-nil
// error as the end of the stream, as the reader's Read does.
type GatedReader interface {
	io.Reader
	// Ungate returns the reader under the gate and the wait to call
	// before reading it.
	Ungate() (io.Reader, func() error)
}

// Ungate implements the writer side of the same idea for heldWriter.
func (g *heldWriter) Ungate() (io.Writer, func() error) {
	return g.w, func() error {
		<-g.gate
		return nil
	}
}

// spliceFiles returns the files under src and dst, with the waits to
// call before the first read and the first write (nil if none), or nil
// files if either is not a file.
func spliceFiles(dst io.Writer, src io.Reader) (df, sf *os.File, dwait, swait func() error) {
	if g, ok := src.(GatedReader); ok {
		src, swait = g.Ungate()
	}
	if h, ok := dst.(*heldWriter); ok {
		dst, dwait = h.Ungate()
	}
	sf, _ = src.(*os.File)
	df, _ = dst.(*os.File)
	if sf == nil || df == nil {
		return nil, nil, nil, nil
	}
	return df, sf, dwait, swait
}

// relayPath is the path a Relay with Splice set takes between dst and src.
func relayPath(dst io.Writer, src io.Reader) string {
	df, sf, _, _ := spliceFiles(dst, src)
	if df != nil && canSplice(df, sf) {
		return PathSplice
	}
	return PathCopy
}

// useSplice decides at start whether a stdio relay from src to dst
// splices: never with RelayCopy; wherever it can with RelaySplice and
// RelayAuto, where proxybench measured it beating the copy path
// (bench/README.md, issue 30): without a recorder in every round since
// session 8, and with one (tee, then the recorder's read) in every row of
// two runs once the Log took a read's lines as 40-byte references instead
// of 370-byte records (session 11; before that it lost at 100 B and 8 MB).
func useSplice(mode RelayMode, dst io.Writer, src io.Reader) bool {
	return mode != RelayCopy && relayPath(dst, src) == PathSplice
}
