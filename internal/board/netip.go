package board

import "net/netip"

func netipParse(s string) (netip.Addr, error) { return netip.ParseAddr(s) }
