package httpx

import (
	"net"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// PathUUID parses the path parameter name as a UUID. A malformed id cannot
// name an existing resource, so it is 404 NOT_FOUND for resource.
func PathUUID(c *fiber.Ctx, name, resource string) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Params(name))
	if err != nil {
		return uuid.Nil, apperr.Missing(resource)
	}
	return id, nil
}

// QueryUUID parses an optional UUID query parameter; malformed is 400.
func QueryUUID(c *fiber.Ctx, name string) (*uuid.UUID, error) {
	s := c.Query(name)
	if s == "" {
		return nil, nil
	}
	id, err := uuid.Parse(s)
	if err != nil {
		return nil, apperr.Invalid(name, "must be a UUID")
	}
	return &id, nil
}

// QueryDate parses an optional YYYY-MM-DD query parameter as a UTC date.
func QueryDate(c *fiber.Ctx, name string) (*time.Time, error) {
	s := c.Query(name)
	if s == "" {
		return nil, nil
	}
	d, err := time.ParseInLocation(time.DateOnly, s, time.UTC)
	if err != nil || !InDateRange(d) {
		return nil, apperr.Invalid(name, "must be a date YYYY-MM-DD from 0001-01-01 to 9999-12-31")
	}
	return &d, nil
}

// InDateRange reports whether t falls in years 1 to 9999, the dates every
// filter can hand Postgres: Go parses year 0, which Postgres's calendar
// does not have (1 BC is "0001-01-01 BC"), so a filter written with it
// failed in the database instead of being refused here.
func InDateRange(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 1 && y <= 9999
}

// QueryEnum returns the query parameter when it is one of allowed (or empty).
func QueryEnum(c *fiber.Ctx, name string, allowed ...string) (string, error) {
	s := c.Query(name)
	if s == "" {
		return "", nil
	}
	return s, Enum(name, s, allowed...)
}

// Enum checks that value, given as field, is one of allowed: the domain's
// own list (models.OrderStatuses, rbac.RoleNames(), stock.Ops ...), never
// a copy in a validation tag. Errors: VALIDATION_ERROR on field.
func Enum(field, value string, allowed ...string) error {
	if slices.Contains(allowed, value) {
		return nil
	}
	return apperr.Invalid(field, "must be one of: "+strings.Join(allowed, ", "))
}

// QuerySearch returns a trimmed search term of at most 200 characters.
func QuerySearch(c *fiber.Ctx, name string) (string, error) {
	s, err := QueryText(c, name)
	if err != nil {
		return "", err
	}
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > 200 {
		return "", apperr.Invalid(name, "must be at most 200 characters")
	}
	return s, nil
}

// QueryText returns a free-text query parameter (a search, a slug, an order
// number, a state's name) once it is UTF-8 without NUL characters. Every
// such parameter is read through it: Postgres text refuses both, so a value
// like ?search=%80 failed in the database with a 500 instead of being
// refused here. Parameters parsed as numbers, UUIDs, dates or one of a list
// are checked by that parsing. Errors: VALIDATION_ERROR on name.
func QueryText(c *fiber.Ctx, name string) (string, error) {
	s := c.Query(name)
	if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
		return "", apperr.Invalid(name, "must be UTF-8 text without NUL characters")
	}
	return s, nil
}

// ClientIP is the socket peer, or the nearest untrusted address in
// X-Forwarded-For when the peer is in TRUSTED_PROXIES (README
// "Authentication"), so a client cannot pick its own rate-limit bucket by
// forging the header.
func ClientIP(c *fiber.Ctx, trusted []*net.IPNet) string {
	peer := c.Context().RemoteIP()
	if !inNets(peer, trusted) {
		return peer.String()
	}
	hops := strings.Split(c.Get(fiber.HeaderXForwardedFor), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		ip := net.ParseIP(strings.TrimSpace(hops[i]))
		if ip == nil {
			break
		}
		if !inNets(ip, trusted) {
			return ip.String()
		}
	}
	return peer.String()
}

func inNets(ip net.IP, nets []*net.IPNet) bool {
	for _, n := range nets {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// LocalClientIP is the c.Locals key of the resolved client address.
const LocalClientIP = "clientIP"

// IP returns the client address resolved by the client-IP middleware.
func IP(c *fiber.Ctx) string {
	if ip, ok := c.Locals(LocalClientIP).(string); ok {
		return ip
	}
	return c.Context().RemoteIP().String()
}

// ClientBucket is the rate-limit key of the request's client: its address
// for IPv4, its /64 for IPv6 (ratelimit.AddressBucket). Every limit counted
// per client uses it.
func ClientBucket(c *fiber.Ctx) string { return ratelimit.AddressBucket(IP(c)) }
