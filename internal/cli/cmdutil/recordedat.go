package cmdutil

import "time"

// ParseRecordedAt parses --recorded-at (RFC 3339, fractional seconds
// allowed); a bad value is a usage error.
func ParseRecordedAt(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, FlagErrorf("--recorded-at %q is not an RFC 3339 time (e.g. 2026-01-01T00:00:00Z)", s)
	}
	return t.UTC(), nil
}
