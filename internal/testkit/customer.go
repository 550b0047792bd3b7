package testkit

import (
	"context"
	"fmt"
	"testing"

	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// CustomerPassword is the password of customers made by MustCustomer.
const CustomerPassword = "customer-pass-123"

// MustCustomer registers an active customer (no group) and returns it with
// a customer access token.
func MustCustomer(tb testing.TB, a *App) (*models.Customer, string) {
	tb.Helper()
	s, err := customerService(a).Register(context.Background(), customer.RegisterInput{
		Email: fmt.Sprintf("shopper-%s@example.com", uuid.NewString()[:8]), Password: CustomerPassword,
		Name: "Test Shopper", Phone: "+91 98765 43210",
	})
	if err != nil {
		tb.Fatalf("testkit: register customer: %v", err)
	}
	return s.Customer, s.Token.AccessToken
}

// MustAddress saves an address in Karnataka for customerID and returns its id.
func MustAddress(tb testing.TB, a *App, customerID uuid.UUID) uuid.UUID {
	tb.Helper()
	addr, err := customerService(a).AddAddress(context.Background(), customerID, models.Address{
		Type: "shipping", Street: "12 MG Road", City: "Bengaluru", State: "Karnataka", Pincode: "560001", Country: "India",
	})
	if err != nil {
		tb.Fatalf("testkit: add address: %v", err)
	}
	return addr.ID
}

func customerService(a *App) *customer.Service {
	return customer.New(a.DB, customer.Settings{JWTSecret: []byte(a.Config.CustomerJWTSecret), TokenTTL: a.Config.CustomerTokenTTL})
}
