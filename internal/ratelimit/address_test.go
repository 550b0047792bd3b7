package ratelimit_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/ratelimit"
)

// Two IPv6 addresses of one /64 share a bucket, other /64s do not; IPv4 is
// bucketed per address, also when written IPv4-mapped.
func TestAddressBucket(t *testing.T) {
	cases := []struct {
		name, a, b string
		same       bool
	}{
		{"ipv6 same /64", "2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", true},
		{"ipv6 same /64, other spelling", "2001:DB8:1:2:0:0:0:1", "2001:db8:1:2::abcd", true},
		{"ipv6 neighbouring /64", "2001:db8:1:2::1", "2001:db8:1:3::1", false},
		{"ipv6 other /48", "2001:db8:1:2::1", "2001:db8:2:2::1", false},
		{"ipv6 zone dropped", "fe80::1%eth0", "fe80::2", true},
		{"ipv4 same address", "203.0.113.7", "203.0.113.7", true},
		{"ipv4 neighbours", "203.0.113.7", "203.0.113.8", false},
		{"ipv4-mapped is ipv4", "::ffff:203.0.113.7", "203.0.113.7", true},
		{"ipv4-mapped neighbours", "::ffff:203.0.113.7", "203.0.113.8", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := ratelimit.AddressBucket(c.a), ratelimit.AddressBucket(c.b)
			if (a == b) != c.same {
				t.Fatalf("AddressBucket(%q)=%q, AddressBucket(%q)=%q; same bucket=%v, want %v", c.a, a, c.b, b, a == b, c.same)
			}
		})
	}
	if got := ratelimit.AddressBucket("2001:db8:1:2:3:4:5:6"); got != "2001:db8:1:2::/64" {
		t.Fatalf("bucket %q", got)
	}
	if got := ratelimit.AddressBucket("::ffff:198.51.100.1"); got != "198.51.100.1" {
		t.Fatalf("bucket %q", got)
	}
}
