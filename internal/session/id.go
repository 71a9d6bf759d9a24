package session

import (
	"fmt"
	"io"
	"time"
)

// crockford is Crockford's base32 alphabet (no I, L, O, U), as ULIDs use.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// IDLen is the length of a session id.
const IDLen = 26

// NewID returns a session id: 48 bits of Unix milliseconds followed by 80
// random bits from entropy, in Crockford base32 (26 characters, the ULID
// layout). Ids sort by creation time, and the random part keeps them unique
// across processes and containers, where a PID is not (mcpsnoop's
// PID-based ids collided in containers).
func NewID(now time.Time, entropy io.Reader) (string, error) {
	var b [16]byte
	ms := uint64(now.UnixMilli())
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	if _, err := io.ReadFull(entropy, b[6:]); err != nil {
		return "", fmt.Errorf("session id: read random bits: %w", err)
	}
	return encodeID(b), nil
}

// encodeID writes 128 bits as 26 base32 digits, most significant first
// (the first digit carries the top 3 bits).
func encodeID(b [16]byte) string {
	var out [IDLen]byte
	hi := uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
		uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
	lo := uint64(b[8])<<56 | uint64(b[9])<<48 | uint64(b[10])<<40 | uint64(b[11])<<32 |
		uint64(b[12])<<24 | uint64(b[13])<<16 | uint64(b[14])<<8 | uint64(b[15])
	for i := IDLen - 1; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// IDTime returns the creation time encoded in a session id.
func IDTime(id string) (time.Time, bool) {
	if len(id) != IDLen {
		return time.Time{}, false
	}
	var ms uint64
	for i := 0; i < 10; i++ {
		d := indexCrockford(id[i])
		if d < 0 {
			return time.Time{}, false
		}
		ms = ms<<5 | uint64(d)
	}
	// 10 digits hold 50 bits; the top 2 are always zero for a valid id.
	return time.UnixMilli(int64(ms)).UTC(), ms < 1<<48
}

func indexCrockford(c byte) int {
	for i := 0; i < len(crockford); i++ {
		if crockford[i] == c {
			return i
		}
	}
	return -1
}
