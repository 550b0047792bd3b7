package ratelimit

import "net/netip"

// IPv6Prefix is the prefix length that buckets IPv6 clients. A /64 is the
// smallest network an ISP or cloud provider hands out (RFC 6177), and one
// host may pick any of its 2^64 addresses, so counting per /128 would let a
// single client make a fresh bucket per request.
const IPv6Prefix = 64

// AddressBucket is the rate-limit key of client address ip: an IPv4 address
// itself (also when written IPv4-mapped, ::ffff:a.b.c.d), an IPv6 address's
// /64 network (e.g. "2001:db8:1:2::/64"). A zone is dropped. Every bucket
// keyed by a client address goes through this one function, so no route can
// count per /128 by accident. A string that is not an address is returned as
// it is (the caller's own fallback, e.g. an empty peer).
func AddressBucket(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a, IPv6Prefix).Masked().String()
}
