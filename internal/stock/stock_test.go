package stock_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// fixture makes a product with one variant of inventory units and returns
// the variant id, plus a customer and cart for checkout sessions.
func fixture(t *testing.T, db *gorm.DB, inventory int) (uuid.UUID, uuid.UUID, uuid.UUID) {
	t.Helper()
	p := models.Product{ID: uuid.New(), Title: "Tee", Slug: "tee-" + uuid.NewString()[:8], Price: 1000, Status: "active"}
	v := models.Variant{ID: uuid.New(), ProductID: p.ID, SKU: "SKU-" + uuid.NewString()[:8], Inventory: inventory}
	c := models.Customer{ID: uuid.New(), Email: uuid.NewString()[:8] + "@example.com", IsActive: true}
	for _, row := range []any{&p, &v, &c} {
		if err := db.Create(row).Error; err != nil {
			t.Fatal(err)
		}
	}
	return v.ID, c.ID, p.ID
}

func newSession(t *testing.T, db *gorm.DB, customerID uuid.UUID) uuid.UUID {
	t.Helper()
	cart := models.Cart{ID: uuid.New(), CustomerID: nil, SessionID: ptr(uuid.NewString())}
	if err := db.Create(&cart).Error; err != nil {
		t.Fatal(err)
	}
	s := models.CheckoutSession{ID: uuid.New(), CartID: cart.ID, CustomerID: customerID, State: "PENDING", CartFingerprint: "x",
		Email: "a@example.com", ShippingAddress: []byte("{}"), BillingAddress: []byte("{}"), Lines: []byte("[]"),
		Currency: "INR", PaymentProvider: "simulator", PaymentStatus: "CREATED", ExpiresAt: timeNow()}
	if err := db.Create(&s).Error; err != nil {
		t.Fatal(err)
	}
	return s.ID
}

func counters(t *testing.T, db *gorm.DB, id uuid.UUID) models.Variant {
	t.Helper()
	var v models.Variant
	if err := db.Take(&v, "id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	return v
}

func TestConcurrentReservationsNeverOversell(t *testing.T) {
	db, _ := testkit.MustDB(t)
	variant, customer, _ := fixture(t, db, 10)
	sessions := make([]uuid.UUID, 100)
	for i := range sessions {
		sessions[i] = newSession(t, db, customer)
	}
	var ok, short atomic.Int32
	// Behind one barrier; Race fails unless reservations overlapped.
	testkit.Race(t, len(sessions), func(i int) {
		err := db.Transaction(func(tx *gorm.DB) error {
			return stock.Reserve(tx, sessions[i], []stock.Item{{VariantID: variant, Quantity: 1}})
		})
		switch {
		case err == nil:
			ok.Add(1)
		case apperr.CodeOf(err) == apperr.Conflict && errors.Is(err, stock.ErrShortage):
			short.Add(1)
		default:
			t.Errorf("unexpected error: %v", err)
		}
	})
	if ok.Load() != 10 || short.Load() != 90 {
		t.Fatalf("%d reserved, %d short; want 10 and 90", ok.Load(), short.Load())
	}
	v := counters(t, db, variant)
	if v.Reserved != 10 || v.Available() != 0 {
		t.Fatalf("reserved %d available %d", v.Reserved, v.Available())
	}
	var rows int64
	db.Model(&models.StockReservation{}).Count(&rows)
	if rows != 10 {
		t.Fatalf("%d reservation rows, want 10", rows)
	}
}

func TestReleaseCommitShipUncommit(t *testing.T) {
	db, _ := testkit.MustDB(t)
	variant, customer, _ := fixture(t, db, 5)
	a, b := newSession(t, db, customer), newSession(t, db, customer)
	tx := func(f func(tx *gorm.DB) error) {
		t.Helper()
		if err := db.Transaction(f); err != nil {
			t.Fatal(err)
		}
	}
	tx(func(tx *gorm.DB) error { return stock.Reserve(tx, a, []stock.Item{{variant, 2}, {variant, 1}}) })
	tx(func(tx *gorm.DB) error { return stock.Reserve(tx, b, []stock.Item{{variant, 2}}) })
	if v := counters(t, db, variant); v.Reserved != 5 || v.Available() != 0 {
		t.Fatalf("after reserve: %+v", v)
	}
	// Release twice: the second finds nothing.
	for i := 0; i < 2; i++ {
		tx(func(tx *gorm.DB) error { _, err := stock.Release(tx, b); return err })
	}
	if v := counters(t, db, variant); v.Reserved != 3 || v.Available() != 2 {
		t.Fatalf("after release: %+v", v)
	}
	var committed []stock.Item
	tx(func(tx *gorm.DB) error { var err error; committed, err = stock.Commit(tx, a); return err })
	tx(func(tx *gorm.DB) error {
		again, err := stock.Commit(tx, a)
		if len(again) != 0 {
			t.Fatal("double commit")
		}
		return err
	})
	if len(committed) != 1 || committed[0].Quantity != 3 {
		t.Fatalf("committed %+v", committed)
	}
	if v := counters(t, db, variant); v.Reserved != 0 || v.Committed != 3 || v.Available() != 2 {
		t.Fatalf("after commit: %+v", v)
	}
	tx(func(tx *gorm.DB) error { return stock.Ship(tx, []stock.Item{{variant, 2}}) })
	if v := counters(t, db, variant); v.Inventory != 3 || v.Committed != 1 || v.Available() != 2 {
		t.Fatalf("after ship: %+v", v)
	}
	tx(func(tx *gorm.DB) error { return stock.Uncommit(tx, []stock.Item{{variant, 1}}) })
	if v := counters(t, db, variant); v.Inventory != 3 || v.Committed != 0 || v.Available() != 3 {
		t.Fatalf("after uncommit: %+v", v)
	}
	// CommitDirect refuses what is not available and changes nothing.
	err := db.Transaction(func(tx *gorm.DB) error { return stock.CommitDirect(tx, []stock.Item{{variant, 4}}) })
	if !errors.Is(err, stock.ErrShortage) {
		t.Fatalf("CommitDirect beyond stock: %v", err)
	}
	if v := counters(t, db, variant); v.Committed != 0 {
		t.Fatalf("after refused CommitDirect: %+v", v)
	}
}

func TestCrossedLow(t *testing.T) {
	db, _ := testkit.MustDB(t)
	variant, _, _ := fixture(t, db, 12)
	var got []stock.LowStock
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := stock.CommitDirect(tx, []stock.Item{{variant, 3}}); err != nil { // 12 -> 9 available
			return err
		}
		var err error
		got, err = stock.CrossedLow(tx, []stock.Item{{variant, 3}}, 10)
		return err
	})
	if err != nil || len(got) != 1 || got[0].Available != 9 || got[0].Threshold != 10 {
		t.Fatalf("crossed %+v err %v", got, err)
	}
	// Already below: a further move does not cross again.
	db.Transaction(func(tx *gorm.DB) error {
		stock.CommitDirect(tx, []stock.Item{{variant, 1}})
		got, err = stock.CrossedLow(tx, []stock.Item{{variant, 1}}, 10)
		return err
	})
	if len(got) != 0 {
		t.Fatalf("crossed again: %+v", got)
	}
}
