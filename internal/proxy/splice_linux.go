//go:build linux

package proxy

import (
	"io"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The splice path (issue 30). A bare relay copies every byte twice, into
// user space and out; the logging relay did that and the Log copied it a
// third time into the page cache. Here the bytes go from src to dst as
// page references, and the recorder's copy is the one read:
//
//	src ──splice──▶ mid ──splice──▶ dst
//	                 │
//	                tee ──▶ rec ──read──▶ splitter (the recorder's copy)
//
// mid is a pipe of the relay's own even when src is a pipe: every call
// then waits on one end only, src (fill) or dst (drain), and waits the
// way that end is read or written by Go, through the poller for a
// non-blocking file and in the system call for a blocking one (the
// shim's own stdin and stdout). A socket, which tee(2) cannot take, goes
// through mid the same way. mid and rec are blocking pipes that are
// always empty (fill, tee) or hold what is about to be taken (tee, read,
// drain), so they never make a call wait.
//
// The order of the wire holds as on the copy path: the chunk is teed and
// its lines handed to the recorder before it is spliced on to dst.

// spliceChunk is the size asked for mid and rec (F_SETPIPE_SZ); the most a
// fill moves. Where the system refuses, they keep the default 64 KiB.
const spliceChunk = 1 << 20

// spliceWorks reports whether the kernel does tee(2) and splice(2)
// between pipes (a sandbox may not).
var spliceWorks = sync.OnceValue(func() bool {
	var a, b, c [2]int
	for _, p := range []*[2]int{&a, &b, &c} {
		if unix.Pipe2(p[:], unix.O_CLOEXEC|unix.O_NONBLOCK) != nil {
			return false
		}
		defer unix.Close(p[0])
		defer unix.Close(p[1])
	}
	if n, err := unix.Write(a[1], []byte{'x'}); n != 1 || err != nil {
		return false
	}
	if n, err := unix.Tee(a[0], b[1], 1, unix.SPLICE_F_NONBLOCK); n != 1 || err != nil {
		return false
	}
	n, err := unix.Splice(a[0], nil, c[1], nil, 1, unix.SPLICE_F_NONBLOCK)
	return n == 1 && err == nil
})

// A spliceEnd is src or dst of a splice relay: a pipe or a stream socket.
type spliceEnd struct {
	rc   syscall.RawConn
	pipe bool
	// nonblock: Go polls the file, so a call that would block returns
	// EAGAIN and waits in rc; else the call blocks, as Read and Write of
	// such a file do.
	nonblock bool
}

// endOf returns f as a splice end, or false if it is neither a pipe nor
// a stream socket.
func endOf(f *os.File) (*spliceEnd, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, false
	}
	e := &spliceEnd{rc: rc}
	ok := false
	if rc.Control(func(fd uintptr) {
		var st unix.Stat_t
		if unix.Fstat(int(fd), &st) != nil {
			return
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFIFO:
			e.pipe = true
		case unix.S_IFSOCK:
			if typ, err := unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TYPE); err != nil || typ != unix.SOCK_STREAM {
				return
			}
		default:
			return
		}
		fl, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
		if err != nil {
			return
		}
		e.nonblock = fl&unix.O_NONBLOCK != 0
		ok = true
	}) != nil {
		return nil, false
	}
	return e, ok
}

func canSplice(dst, src *os.File) bool {
	if !spliceWorks() {
		return false
	}
	_, ok1 := endOf(src)
	_, ok2 := endOf(dst)
	return ok1 && ok2
}

// grow asks for a pipe end's capacity to be spliceChunk, so that a fill
// or a drain moves up to that much in one call instead of the default
// 64 KiB (where the system allows: pipe-max-size, the user's pipe pages).
// The pipe's bytes and their order are unchanged; it buffers more.
func (e *spliceEnd) grow() {
	if !e.pipe {
		return
	}
	_ = e.rc.Control(func(fd uintptr) {
		if size, err := unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0); err == nil && size < spliceChunk {
			_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, spliceChunk)
		}
	})
}

// call runs op on e's descriptor: once, or, for a non-blocking end, until
// it no longer returns EAGAIN, waiting for e to be ready in between.
// EINTR is retried.
func (e *spliceEnd) call(write bool, op func(fd int) (int, error)) (n int, err error) {
	f := func(fd uintptr) bool {
		for {
			n, err = op(int(fd))
			if err != unix.EINTR {
				break
			}
		}
		return !(e.nonblock && err == unix.EAGAIN)
	}
	var werr error
	if write {
		werr = e.rc.Write(f)
	} else {
		werr = e.rc.Read(f)
	}
	if werr != nil {
		return 0, werr // closed
	}
	return n, err
}

// flags are the splice flags of a call on e.
func (e *spliceEnd) flags() int {
	if e.nonblock {
		return unix.SPLICE_F_MOVE | unix.SPLICE_F_NONBLOCK
	}
	return unix.SPLICE_F_MOVE
}

// A kpipe is a pipe of the relay's own (mid, rec).
type kpipe struct {
	r, w int
	size int // its capacity
}

func newKpipe() (kpipe, error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return kpipe{}, err
	}
	size, err := unix.FcntlInt(uintptr(p[1]), unix.F_SETPIPE_SZ, spliceChunk)
	if err != nil {
		size, err = unix.FcntlInt(uintptr(p[1]), unix.F_GETPIPE_SZ, 0)
	}
	if err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return kpipe{}, err
	}
	return kpipe{r: p[0], w: p[1], size: size}, nil
}

func (p kpipe) close() {
	unix.Close(p.r)
	unix.Close(p.w)
}

// readFull reads exactly len(b) bytes that are in p.
func (p kpipe) readFull(b []byte) error {
	for len(b) > 0 {
		n, err := unix.Read(p.r, b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return io.ErrUnexpectedEOF
		}
		b = b[n:]
	}
	return nil
}

// discard drops n bytes that are in p.
func (p kpipe) discard(n int) error {
	var b [32 << 10]byte
	for n > 0 {
		k := min(n, len(b))
		if err := p.readFull(b[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// splice relays src to dst by splice(2) if both are files this can take,
// and reports whether it relayed all of src. If it returns false, the
// copy path relays what is left: all of it when splicing was not
// possible, or, after a failed write to dst with KeepReading, the rest of
// src, read and recorded without forwarding.
func (r *relayRun) splice(dst io.Writer, src io.Reader) bool {
	df, sf, dwait, swait := spliceFiles(dst, src)
	if df == nil || !spliceWorks() {
		return false
	}
	se, ok := endOf(sf)
	if !ok {
		return false
	}
	de, ok := endOf(df)
	if !ok {
		return false
	}
	mid, err := newKpipe()
	if err != nil {
		return false
	}
	defer mid.close()
	chunk := mid.size
	var rec kpipe
	if r.sp != nil {
		if rec, err = newKpipe(); err != nil {
			return false
		}
		defer rec.close()
		chunk = min(chunk, rec.size) // a tee must fit rec whole
	}
	se.grow()
	de.grow()
	r.res.Path = PathSplice
	if swait != nil && swait() != nil {
		r.readEnd(nil) // the gate's EOF
		return true
	}
	for {
		max := chunk
		var b []byte
		if r.sp != nil {
			b = r.sp.readBuf()
			max = min(max, len(b), r.sp.readCap())
		}
		// fill: src → mid, waiting for src.
		n, err := se.call(false, func(fd int) (int, error) {
			k, err := unix.Splice(fd, nil, mid.w, nil, max, se.flags())
			return int(k), err
		})
		if n <= 0 {
			if errno, ok := err.(unix.Errno); ok {
				err = &os.PathError{Op: "splice", Path: sf.Name(), Err: errno}
			}
			r.readEnd(err)
			return true
		}
		r.res.Bytes += int64(n)
		if dwait != nil && r.sp == nil {
			_ = dwait()
			dwait = nil
		}
		for left := n; left > 0; {
			k := left
			if r.sp != nil {
				// The recorder's copy, numbered before it goes on. tee
				// takes from the front of mid without consuming, so what
				// it took is drained before the next tee.
				k, err = teeAll(mid, rec, left)
				if err == nil {
					err = rec.readFull(b[:k])
				}
				if err != nil {
					// Not seen between two pipes of ours that tee did at
					// start; ends the relay as a read error would.
					r.readEnd(err)
					return true
				}
				r.sp.feed(b[:k])
				b = b[k:]
				if dwait != nil {
					_ = dwait()
					dwait = nil
				}
			}
			if moved, werr := drain(mid, de, k); werr != nil {
				// What is left in mid is not forwarded: what was teed is
				// recorded already, the rest is read for the recorder.
				derr := mid.discard(k - moved)
				if rest := left - k; derr == nil && rest > 0 {
					if derr = mid.readFull(b[:rest]); derr == nil {
						r.sp.feed(b[:rest])
					}
				}
				if derr != nil {
					r.readEnd(derr)
					return true
				}
				if r.writeFailed(&os.PathError{Op: "splice", Path: df.Name(), Err: werr}) {
					return true
				}
				return false // the rest by copy, recorded, not forwarded
			}
			left -= k
		}
	}
}

// teeAll tees up to n bytes of mid (which holds them) into rec (empty).
func teeAll(mid, rec kpipe, n int) (int, error) {
	for {
		k, err := unix.Tee(mid.r, rec.w, n, 0)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "tee", Path: "relay pipe", Err: err}
		case k <= 0:
			return 0, &os.PathError{Op: "tee", Path: "relay pipe", Err: io.ErrUnexpectedEOF}
		}
		return int(k), nil
	}
}

// drain moves n bytes from mid to dst, and says how many it moved.
func drain(mid kpipe, de *spliceEnd, n int) (moved int, err error) {
	for moved < n {
		k, err := de.call(true, func(fd int) (int, error) {
			k, err := unix.Splice(mid.r, nil, fd, nil, n-moved, de.flags())
			return int(k), err
		})
		if err != nil {
			return moved, err
		}
		if k <= 0 {
			return moved, io.ErrShortWrite
		}
		moved += k
	}
	return moved, nil
}
