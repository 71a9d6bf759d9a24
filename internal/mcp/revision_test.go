package mcp

import "testing"

func TestParseRevision(t *testing.T) {
	tests := []struct {
		in   string
		want Revision
		ok   bool
	}{
		{"2024-11-05", Rev20241105, true},
		{"2025-03-26", Rev20250326, true},
		{"2025-06-18", Rev20250618, true},
		{"2025-11-25", Rev20251125, true},
		{"2026-07-28", Rev20260728, true},
		{"2026-03-26", "", false},
		{"2027-01-01", "", false},
		{"", "", false},
		{" 2025-06-18", "", false},
	}
	for _, tt := range tests {
		got, ok := ParseRevision(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseRevision(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestEra(t *testing.T) {
	tests := []struct {
		r    Revision
		want Era
	}{
		{Rev20241105, EraLegacy},
		{Rev20250326, EraLegacy},
		{Rev20250618, EraLegacy},
		{Rev20251125, EraLegacy},
		{Rev20260728, EraModern},
		{"2026-03-26", EraLegacy}, // an unknown pre-modern date
		{"2027-01-01", EraModern}, // a future version
		{"2026-06-30", EraLegacy}, // SEP-2663's name for 2026-07-28 is earlier-dated
		{"latest", EraUnknown},
		{"", EraUnknown},
		{"2026-7-28", EraUnknown},
		{"2026-07-2x", EraUnknown},
	}
	for _, tt := range tests {
		if got := tt.r.Era(); got != tt.want {
			t.Errorf("Revision(%q).Era() = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestBefore(t *testing.T) {
	for i, r := range Revisions {
		for j, o := range Revisions {
			if got := r.Before(o); got != (i < j) {
				t.Errorf("%s.Before(%s) = %v, want %v", r, o, got, i < j)
			}
		}
	}
	if Latest != Revisions[len(Revisions)-1] || LatestLegacy != Revisions[len(Revisions)-2] {
		t.Errorf("Latest/LatestLegacy out of step with Revisions")
	}
}

func TestErrorCodes(t *testing.T) {
	tests := []struct {
		code             int64
		name             string
		modern, reserved bool
	}{
		{-32700, "ParseError", false, false},
		{-32601, "MethodNotFound", false, false},
		{-32002, "ResourceNotFound", false, false},
		{-32001, "", false, false},
		{-32019, "", false, false},
		{-32020, "HeaderMismatch", true, false},
		{-32021, "MissingRequiredClientCapability", true, false},
		{-32022, "UnsupportedProtocolVersion", true, false},
		{-32023, "", false, true},
		{-32042, "URLElicitationRequired", false, false},
		{-32099, "", false, true},
		{-32100, "", false, false},
		{0, "", false, false},
	}
	for _, tt := range tests {
		if got := ErrorCodeName(tt.code); got != tt.name {
			t.Errorf("ErrorCodeName(%d) = %q, want %q", tt.code, got, tt.name)
		}
		if got := IsModernError(tt.code); got != tt.modern {
			t.Errorf("IsModernError(%d) = %v, want %v", tt.code, got, tt.modern)
		}
		if got := IsReservedUndefined(tt.code); got != tt.reserved {
			t.Errorf("IsReservedUndefined(%d) = %v, want %v", tt.code, got, tt.reserved)
		}
	}
}
