package catalog

import (
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/models"
)

// ProductStatuses is the set of product statuses.
var ProductStatuses = []string{models.ProductDraft, models.ProductActive, models.ProductArchived}

// productMoves are the allowed status transitions (docs/DECISIONS.md
// "Catalog"). Setting the status a product already has is not a move and
// always allowed.
var productMoves = map[string][]string{
	models.ProductDraft:    {models.ProductActive, models.ProductArchived},
	models.ProductActive:   {models.ProductDraft, models.ProductArchived},
	models.ProductArchived: {models.ProductDraft},
}

func checkStatus(s string) error {
	for _, ok := range ProductStatuses {
		if s == ok {
			return nil
		}
	}
	return apperr.Invalid("status", "must be one of: draft, active, archived")
}

// checkNewStatus is the status of a new product: draft (the default) or
// active; a product is archived only after it existed.
func checkNewStatus(s string) error {
	if s == models.ProductDraft || s == models.ProductActive {
		return nil
	}
	if checkStatus(s) == nil {
		return apperr.Invalid("status", "a new product must be draft or active")
	}
	return checkStatus(s)
}

// CanMove reports whether a product may go from status from to status to.
func CanMove(from, to string) bool {
	if from == to {
		return true
	}
	for _, s := range productMoves[from] {
		if s == to {
			return true
		}
	}
	return false
}

// checkMove returns CONFLICT for a transition that is not allowed.
func checkMove(from, to string) error {
	if CanMove(from, to) {
		return nil
	}
	return apperr.Conflictf("a product cannot move from %s to %s", from, to).
		WithDetails(map[string]any{"field": "status", "from": from, "to": to})
}
