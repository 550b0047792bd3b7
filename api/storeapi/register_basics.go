package storeapi

import "github.com/gofiber/fiber/v2"

// registerBasics mounts what a storefront needs around the catalog and the
// account: navigation, password reset and change, and
// editing saved addresses. keyed is the Idempotency-Key middleware.
func (h *handlers) registerBasics(r fiber.Router, keyed fiber.Handler) {
	r.Get("/categories", h.listCategories)
	r.Get("/collections", h.listCollections)
	r.Get("/collections/:slug", h.optionalCustomer, h.getCollection)

	r.Post("/customers/password/forgot", keyed, h.forgotPassword)
	r.Post("/customers/password/reset", keyed, h.resetPassword)
	r.Post("/customers/me/password", h.requireCustomer, keyed, h.changePassword)

	r.Patch("/customers/me/addresses/:id", h.requireCustomer, keyed, h.updateAddress)
	r.Delete("/customers/me/addresses/:id", h.requireCustomer, keyed, h.deleteAddress)
}
