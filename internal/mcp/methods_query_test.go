package mcp

import (
	"slices"
	"sort"
)

// The queries of the method table that only the tests ask (the binary
// looks a method up by name, LookupMethod): kept here so the table is
// still checked against the schema (issue 27 item 9).

// In reports whether m exists as a real JSON-RPC message in revision r.
// Methods of an extension are not "in" a revision; see [MethodInfo.Extension].
func (m MethodInfo) In(r Revision) bool { return slices.Contains(m.Revisions, r) }

// AsInputRequestIn reports whether m may appear inside an
// InputRequiredResult's inputRequests in revision r.
func (m MethodInfo) AsInputRequestIn(r Revision) bool { return slices.Contains(m.InputRequestIn, r) }

// MethodsIn returns the methods that exist as real JSON-RPC messages in
// revision r, sorted by name. Extension-only methods are not included.
func MethodsIn(r Revision) []MethodInfo {
	var out []MethodInfo
	for _, m := range methodTable {
		if m.In(r) {
			out = append(out, clone(m))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ExtensionMethods returns the methods defined by the extension ext.
func ExtensionMethods(ext string) []MethodInfo {
	var out []MethodInfo
	for _, m := range methodTable {
		if m.Extension == ext {
			out = append(out, clone(m))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// AllMethods returns the whole catalogue, sorted by name.
func AllMethods() []MethodInfo {
	out := make([]MethodInfo, 0, len(methodTable))
	for _, m := range methodTable {
		out = append(out, clone(m))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
