package storeapi_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/golang-jwt/jwt/v5"
)

func TestCustomerAccounts(t *testing.T) {
	app := testkit.MustApp(t)
	email := uniqueEmail("reg")
	reg := app.Do(t, http.MethodPost, "/customers/register", testkit.Req{Body: map[string]any{
		"email": strings.ToUpper(email), "password": "long-enough-pw", "name": "Asha", "phone": "+91 98450 00000",
	}}).Expect(t, http.StatusCreated).Map(t)
	if reg["token_type"] != "Bearer" || reg["expires_in"].(float64) != 86400 || reg["access_token"] == "" {
		t.Fatalf("register: %v", reg)
	}
	cust := reg["customer"].(map[string]any)
	if cust["email"] != email || cust["isGuest"] != false || cust["emailVerified"] != false || cust["isActive"] != true {
		t.Fatalf("customer: %v", cust)
	}
	token := reg["access_token"].(string)

	t.Run("validation and duplicates", func(t *testing.T) {
		app.Do(t, http.MethodPost, "/customers/register", testkit.Req{Body: map[string]any{"email": email, "password": "long-enough-pw", "name": "X"}}).
			ExpectError(t, http.StatusConflict, "CONFLICT")
		app.Do(t, http.MethodPost, "/customers/register", testkit.Req{Body: map[string]any{"email": uniqueEmail("x"), "password": "short", "name": "X"}, Invalid: true}).
			ExpectField(t, "password")
		app.Do(t, http.MethodPost, "/customers/register", testkit.Req{Body: map[string]any{"email": uniqueEmail("x"), "password": "long-enough-pw", "name": "X", "phone": "call me"}}).
			ExpectField(t, "phone")
	})
	t.Run("login", func(t *testing.T) {
		app.Do(t, http.MethodPost, "/customers/login", testkit.Req{Body: map[string]any{"email": email, "password": "long-enough-pw"}}).Expect(t, http.StatusOK)
		wrong := app.Do(t, http.MethodPost, "/customers/login", testkit.Req{Body: map[string]any{"email": email, "password": "nope-nope"}}).
			ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
		unknown := app.Do(t, http.MethodPost, "/customers/login", testkit.Req{Body: map[string]any{"email": uniqueEmail("none"), "password": "nope-nope"}}).
			ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
		if wrong.Error.Message != unknown.Error.Message {
			t.Fatalf("login answers differ: %q vs %q", wrong.Error.Message, unknown.Error.Message)
		}
	})
	t.Run("me and addresses", func(t *testing.T) {
		me := app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: token}).Expect(t, http.StatusOK).Map(t)
		if me["email"] != email {
			t.Fatalf("me: %v", me)
		}
		app.Do(t, http.MethodGet, "/customers/me", testkit.Req{}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
		a := app.Do(t, http.MethodPost, "/customers/me/addresses", testkit.Req{Token: token, Body: guestAddress()}).Expect(t, http.StatusCreated).Map(t)
		if a["id"] == "" || a["pincode"] != "560001" {
			t.Fatalf("address: %v", a)
		}
		bad := guestAddress()
		bad["type"] = "office"
		app.Do(t, http.MethodPost, "/customers/me/addresses", testkit.Req{Token: token, Body: bad, Invalid: true}).ExpectField(t, "type")
		bad = guestAddress()
		bad["pincode"] = "ABC"
		app.Do(t, http.MethodPost, "/customers/me/addresses", testkit.Req{Token: token, Body: bad}).ExpectField(t, "pincode")
		list := app.Do(t, http.MethodGet, "/customers/me/addresses", testkit.Req{Token: token}).Expect(t, http.StatusOK).Map(t)
		if list["pagination"].(map[string]any)["total"].(float64) != 1 {
			t.Fatalf("addresses: %v", list)
		}
		// Another customer sees none of them.
		_, other := testkit.MustCustomer(t, app)
		list = app.Do(t, http.MethodGet, "/customers/me/addresses", testkit.Req{Token: other}).Expect(t, http.StatusOK).Map(t)
		if len(list["data"].([]any)) != 0 {
			t.Fatalf("other customer's addresses: %v", list)
		}
	})
	t.Run("tokens that are refused", func(t *testing.T) {
		_, adminToken := testkit.MustAdmin(t, app, models.RoleSuperAdmin)
		app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: adminToken}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
		// A customer token is refused on admin routes.
		app.Do(t, http.MethodGet, "/api/v1/admin/reviews", testkit.Req{Token: token}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
		// alg none, a wrong key, a wrong type, an expired token.
		claims := jwt.MapClaims{"sub": cust["id"], "email": email, "type": "customer",
			"iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix()}
		none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
		wrongKey, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte("another-secret-another-secret-0123"))
		secret := []byte(app.Config.CustomerJWTSecret)
		claims["type"] = "admin"
		wrongType, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(secret)
		claims["type"], claims["exp"] = "customer", time.Now().Add(-time.Minute).Unix()
		expired, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(secret)
		parts := strings.Split(token, ".")
		header, _ := base64.RawURLEncoding.DecodeString(parts[0])
		hs384 := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(header), "HS256", "HS384", 1))) + "." + parts[1] + "." + parts[2]
		for name, tok := range map[string]string{"none": none, "wrong key": wrongKey, "wrong type": wrongType, "expired": expired, "alg swapped": hs384, "garbage": "abc"} {
			if r := app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: tok}); r.Status != http.StatusUnauthorized {
				t.Errorf("%s token: status %d", name, r.Status)
			}
		}
		// A bad token is refused on public routes too, not served as a guest.
		app.Do(t, http.MethodGet, "/products", testkit.Req{Token: "abc"}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	})
	t.Run("deactivation ends tokens at once", func(t *testing.T) {
		app.DB.Model(&models.Customer{}).Where("email = ?", email).Update("is_active", false)
		app.Do(t, http.MethodGet, "/customers/me", testkit.Req{Token: token}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
		app.Do(t, http.MethodPost, "/customers/login", testkit.Req{Body: map[string]any{"email": email, "password": "long-enough-pw"}}).
			ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	})
}
