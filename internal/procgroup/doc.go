// Package procgroup starts a child in a process group of its own and
// reaches that whole group: the server and every child it started (an npx
// wrapper and its node, a shell and its command), which would otherwise
// outlive it. On Linux the kernel also kills the child when its parent
// dies (the parent-death signal). The prober (internal/transport) and the
// stdio shim (internal/proxy) both start servers this way.
package procgroup
