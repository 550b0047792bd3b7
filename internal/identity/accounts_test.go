package identity_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func TestCreateValidates(t *testing.T) {
	db, _ := testkit.MustDB(t)
	svc := identity.NewAccounts(db)
	ctx := context.Background()
	tests := []struct {
		name  string
		in    identity.CreateInput
		field string
	}{
		{"bad email", identity.CreateInput{Email: "nope", Password: "long-enough-pass", Role: "staff"}, "email"},
		{"display-name email", identity.CreateInput{Email: "A <a@example.com>", Password: "long-enough-pass", Role: "staff"}, "email"},
		{"short password", identity.CreateInput{Email: "a@example.com", Password: "short", Role: "staff"}, "password"},
		{"long password", identity.CreateInput{Email: "a@example.com", Password: strings.Repeat("x", 257), Role: "staff"}, "password"},
		{"bad role", identity.CreateInput{Email: "a@example.com", Password: "long-enough-pass", Role: "root"}, "role"},
	}
	for _, tt := range tests {
		_, err := svc.Create(ctx, tt.in)
		e, ok := apperr.As(err)
		if !ok || e.Code != apperr.Validation || e.Details["field"] != tt.field {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	a, err := svc.Create(ctx, identity.CreateInput{Email: "A@Example.com", Password: "long-enough-pass", Role: "staff"})
	if err != nil || a.Email != "a@example.com" || !strings.HasPrefix(a.PasswordHash, "$argon2id$") {
		t.Fatalf("create: %+v %v", a, err)
	}
	if _, err := svc.Create(ctx, identity.CreateInput{Email: "a@EXAMPLE.com", Password: "long-enough-pass", Role: "staff"}); apperr.CodeOf(err) != apperr.Conflict {
		t.Fatalf("duplicate: %v", err)
	}
}

func TestListSearchIsLiteral(t *testing.T) {
	db, _ := testkit.MustDB(t)
	svc := identity.NewAccounts(db)
	ctx := context.Background()
	for _, e := range []string{"a_b@example.com", "axb@example.com"} {
		if _, err := svc.Create(ctx, identity.CreateInput{Email: e, Password: "long-enough-pass", Role: "viewer"}); err != nil {
			t.Fatal(err)
		}
	}
	rows, total, err := svc.List(ctx, identity.ListFilter{Search: "a_b"}, paging.Window{Limit: 20})
	if err != nil || total != 1 || rows[0].Email != "a_b@example.com" {
		t.Fatalf("search: %+v %d %v", rows, total, err)
	}
}

func TestUpdateDeactivationEndsSessions(t *testing.T) {
	db, _ := testkit.MustDB(t)
	svc := identity.NewAccounts(db)
	ctx := context.Background()
	keep, _ := svc.Create(ctx, identity.CreateInput{Email: "root@example.com", Password: "long-enough-pass", Role: "super_admin"})
	a, _ := svc.Create(ctx, identity.CreateInput{Email: "b@example.com", Password: "long-enough-pass", Role: "staff"})
	for _, owner := range []uuid.UUID{a.ID, a.ID, keep.ID} {
		s := models.AdminSession{ID: uuid.New(), AdminID: owner, RefreshTokenHash: uuid.NewString(), DeviceID: "d",
			ExpiresAt: time.Now().Add(time.Hour), RefreshExpiresAt: time.Now().Add(time.Hour), CreatedAt: time.Now(), LastUsedAt: time.Now()}
		if err := db.Create(&s).Error; err != nil {
			t.Fatal(err)
		}
	}
	long := strings.Repeat("n", 201)
	if _, err := svc.Update(ctx, a.ID, identity.UpdateInput{Name: patch.Set(long)}); apperr.CodeOf(err) != apperr.Validation {
		t.Fatalf("long name: %v", err)
	}
	off := false
	acc, err := svc.Update(ctx, a.ID, identity.UpdateInput{IsActive: patch.Set(off)})
	if err != nil || acc.IsActive {
		t.Fatalf("deactivate: %+v %v", acc, err)
	}
	var mine, others int64
	db.Model(&models.AdminSession{}).Where("admin_id = ?", a.ID).Count(&mine)
	db.Model(&models.AdminSession{}).Where("admin_id = ?", keep.ID).Count(&others)
	if mine != 0 || others != 1 {
		t.Fatalf("sessions left: %d of the deactivated admin, %d of the other", mine, others)
	}
	if _, err := svc.Update(ctx, keep.ID, identity.UpdateInput{IsActive: patch.Set(off)}); apperr.CodeOf(err) != apperr.Conflict {
		t.Fatalf("deactivating the last super_admin: %v", err)
	}
	if _, err := svc.Update(ctx, uuid.New(), identity.UpdateInput{IsActive: patch.Set(off)}); apperr.CodeOf(err) != apperr.NotFound {
		t.Fatalf("unknown admin: %v", err)
	}
}
