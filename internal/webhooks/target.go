// Package webhooks manages outbound webhook subscriptions and delivers the
// outbox's events to them: one delivery row per (subscription, event),
// attempts signed per the Standard Webhooks scheme, retried with exponential
// backoff and jitter for about a day, every attempt logged.
package webhooks

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
)

// ErrBlockedTarget is returned (wrapped) when a delivery would connect to an
// address that targets may not have.
var ErrBlockedTarget = errors.New("webhook target address is not allowed (private, loopback, link-local or reserved)")

// blockedPrefixes are reserved ranges that netip's predicates do not cover.
var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("100::/64"),        // discard
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}

var (
	nat64   = netip.MustParsePrefix("64:ff9b::/96")
	sixToV4 = netip.MustParsePrefix("2002::/16")
)

// Blocked reports whether a may not be a webhook target: loopback, private
// (RFC 1918, ULA), link-local (including the 169.254.169.254 metadata
// service), multicast, unspecified, reserved, and IPv6 forms that embed such
// an IPv4 address.
func Blocked(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return true
	}
	for _, p := range blockedPrefixes {
		if p.Contains(a) {
			return true
		}
	}
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			return Blocked(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		case sixToV4.Contains(a):
			return Blocked(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		}
	}
	return false
}

// Guard decides which URLs may be webhook targets.
type Guard struct {
	// AllowPrivate lifts the address rules (WEBHOOK_ALLOW_PRIVATE_TARGETS).
	AllowPrivate bool
	// Resolver resolves host names at registration; nil uses the system's.
	Resolver *net.Resolver
}

// CheckURL validates a target at registration: an absolute http(s) URL
// without credentials whose host resolves only to allowed addresses (unless
// AllowPrivate). The check is repeated at every connection (DialControl),
// so a name re-pointed later is still refused. Errors: VALIDATION_ERROR on
// `url`.
func (g Guard) CheckURL(ctx context.Context, raw string) error {
	if len(raw) > 2048 {
		return apperr.Invalid("url", "must be at most 2048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return apperr.Invalid("url", "must be an absolute http or https URL")
	}
	if u.User != nil {
		return apperr.Invalid("url", "must not contain credentials")
	}
	if g.AllowPrivate {
		return nil
	}
	host := strings.TrimSuffix(u.Hostname(), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		if Blocked(ip) {
			return apperr.Invalid("url", "must not point to a private, loopback, link-local or reserved address")
		}
		return nil
	}
	r := g.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return apperr.Invalid("url", "host does not resolve")
	}
	for _, a := range addrs {
		if Blocked(a) {
			return apperr.Invalid("url", "must not point to a private, loopback, link-local or reserved address")
		}
	}
	return nil
}

// DialControl refuses, at connect time, any address CheckURL would refuse.
// It runs after DNS resolution for the exact address dialled, so neither a
// re-pointed name nor DNS rebinding reaches an internal service.
func (g Guard) DialControl(network, address string, _ syscall.RawConn) error {
	if g.AllowPrivate {
		return nil
	}
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return ErrBlockedTarget
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || Blocked(ip) {
		return ErrBlockedTarget
	}
	return nil
}
