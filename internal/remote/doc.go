// Package remote watches another machine's sessions over SSH: proxies
// there stream to their usual hub socket, which ssh forwards (-R) to a
// socket on this machine where a local hub listens.
//
// It fixes mcpsnoop's remote mode: the remote socket path is asked of the
// remote machine (`mcpward hub-path`, else its MCPWARD_HOME,
// XDG_STATE_HOME and HOME through sh) instead of guessed as
// /home/<user>; the target is checked so that it cannot pass options to
// ssh; ssh is run, not only printed, and reaped on every path.
package remote
