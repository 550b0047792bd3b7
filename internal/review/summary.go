package review

import (
	"encoding/json"

	"github.com/gocommerce/shop/internal/money"
)

// Summary is a product's rating over its published reviews.
type Summary struct {
	// Average is the mean rating to two decimals (0 with no reviews).
	Average json.Number `json:"average"`
	Count   int         `json:"count"`
}

// Summarize turns the denormalized counters products.rating_count and
// rating_total into a Summary, rounding half up without floating point.
func Summarize(count, total int) Summary {
	if count <= 0 {
		return Summary{Average: "0", Count: 0}
	}
	hundredths := money.MulDivHalfUp(money.Amount(total), 100, int64(count))
	return Summary{Average: json.Number(hundredths.String()), Count: count}
}
