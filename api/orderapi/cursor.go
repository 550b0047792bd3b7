package orderapi

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/order"
	"github.com/google/uuid"
)

// listCursor is the `cursor` of GET /admin/orders (docs/DECISIONS.md, "Order
// list totals"): the last row a walk showed and the number of the page
// that follows it. It is opaque to clients: base64url of
// "1:<createdAt in Unix µs>:<id>:<page>", the 1 a version.
type listCursor struct {
	after order.Position
	page  int
}

const (
	cursorVersion = "1"
	// maxCursorLen is far above any cursor this list gives (about 90).
	maxCursorLen = 200
)

// Bounds of what a cursor may hold: Postgres timestamps and positive page
// numbers that fit an int32.
var (
	minCursorMicros = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	maxCursorMicros = time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC).UnixMicro()
)

func (c listCursor) String() string {
	raw := strings.Join([]string{cursorVersion, strconv.FormatInt(c.after.CreatedAt.UnixMicro(), 10),
		c.after.ID.String(), strconv.Itoa(c.page)}, ":")
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// parseCursor reads a cursor this list gave. Anything else is
// VALIDATION_ERROR on cursor.
func parseCursor(s string) (listCursor, error) {
	bad := apperr.Invalid("cursor", "is not a cursor of this list; use pagination.nextCursor of the previous page")
	if len(s) > maxCursorLen {
		return listCursor{}, bad
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil {
		return listCursor{}, bad
	}
	parts := strings.Split(string(raw), ":")
	if len(parts) != 4 || parts[0] != cursorVersion {
		return listCursor{}, bad
	}
	micros, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || micros < minCursorMicros || micros > maxCursorMicros {
		return listCursor{}, bad
	}
	id, err := uuid.Parse(parts[2])
	if err != nil || id.String() != parts[2] {
		return listCursor{}, bad
	}
	page, err := strconv.Atoi(parts[3])
	if err != nil || page < 2 || page > math.MaxInt32 {
		return listCursor{}, bad
	}
	return listCursor{after: order.Position{CreatedAt: time.UnixMicro(micros).UTC(), ID: id}, page: page}, nil
}
