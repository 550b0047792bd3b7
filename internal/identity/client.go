package identity

import (
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
)

// ClientInfo describes the device a session is opened from.
type ClientInfo struct {
	DeviceID  string
	UserAgent string
	IP        string
}

// Longest device id and user agent kept; longer values are cut.
const (
	maxDeviceID  = 200
	maxUserAgent = 512
)

// normalized returns c with a generated device id when it has none and its
// client-supplied strings cut to their maximum length.
func (c ClientInfo) normalized() ClientInfo {
	c.DeviceID = truncate(strings.TrimSpace(c.DeviceID), maxDeviceID)
	if c.DeviceID == "" {
		c.DeviceID = uuid.NewString()
	}
	c.UserAgent = truncate(c.UserAgent, maxUserAgent)
	return c
}

// truncate makes s storable (valid UTF-8 without NUL, which Postgres text
// refuses) and at most n bytes long, cut on a character boundary.
func truncate(s string, n int) string {
	s = strings.ReplaceAll(strings.ToValidUTF8(s, ""), "\x00", "")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
