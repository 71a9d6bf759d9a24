//go:build !unix

package feed

// CheckOwner reports why the hub socket at sock must not be used. Off
// Unix there is no owner and mode to check: the socket's directory is the
// user's profile.
func CheckOwner(sock string) error { return nil }
