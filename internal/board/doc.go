// Package board runs the public board: it probes every server of a roster
// read-only (never tools/call, never credentials) through the address
// policy of internal/addrguard, which resolves each host once, refuses
// private, loopback, link-local, metadata and other reserved addresses,
// and pins the checked IP for every connection (DNS-rebinding safe); it
// then writes the board JSON and renders a static, self-contained HTML
// page.
package board
