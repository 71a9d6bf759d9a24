//go:build !unix

package proxy

func startReaper(int) func() { return func() {} }
