package identity

import (
	"context"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ListFilter narrows List. Empty fields do not filter.
type ListFilter struct {
	Role string
	// Search matches a substring of the email or name, case-insensitively;
	// its characters are literal.
	Search string
}

// selectAccount reads admins with their 2FA state.
const selectAccount = `admins.*, EXISTS (SELECT 1 FROM admin_two_factor t WHERE t.admin_id = admins.id AND t.enabled) AS two_factor_enabled`

// List returns a page of admins, newest first, and the total count.
// Errors: VALIDATION_ERROR on field "role", SERVICE_UNAVAILABLE.
func (s *Accounts) List(ctx context.Context, f ListFilter, w paging.Window) ([]Account, int64, error) {
	limit, offset := w.Limit, w.Offset
	q := s.db.WithContext(ctx).Model(&models.Admin{})
	if f.Role != "" {
		if !rbac.Role(f.Role).Valid() {
			return nil, 0, apperr.Invalid("role", "must be one of: viewer, staff, admin, super_admin")
		}
		q = q.Where("role = ?", f.Role)
	}
	if f.Search != "" {
		pattern := database.LikeContains(f.Search)
		q = q.Where(`(email::text ILIKE ? ESCAPE '\' OR name ILIKE ? ESCAPE '\')`, pattern, pattern)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, database.Translate(err, "admin")
	}
	var rows []Account
	err := q.Select(selectAccount).Order("created_at DESC, id").Offset(offset).Limit(limit).Find(&rows).Error
	return rows, total, database.Translate(err, "admin")
}

// Get returns one admin.
// Errors: NOT_FOUND.
func (s *Accounts) Get(ctx context.Context, id uuid.UUID) (*Account, error) {
	var a Account
	err := s.db.WithContext(ctx).Model(&models.Admin{}).Select(selectAccount).Where("id = ?", id).Take(&a).Error
	if err != nil {
		return nil, database.Translate(err, "admin")
	}
	return &a, nil
}

// UpdateInput holds the fields to change; nil fields are left as they are.
type UpdateInput struct {
	Name     patch.Field[string]
	Role     patch.Field[string]
	IsActive patch.Field[bool]
}

// Update changes an admin's name, role or active flag. Deactivating ends
// every session of the admin and its pending 2FA logins in the same
// transaction, so its access tokens are refused at once; a role change takes
// effect at once too, since each request reads the role from the database.
// The last active super_admin cannot be demoted or deactivated.
// A keyed request retried after its process died answers with the admin as
// it is, changing nothing (the change records its id under the key).
// Errors: VALIDATION_ERROR (name, role), NOT_FOUND, CONFLICT (last super_admin).
func (s *Accounts) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*Account, error) {
	if _, ok := idempotency.RecordedChange(ctx); ok {
		return s.Get(ctx, id)
	}
	for _, err := range []error{patch.NotNull("name", in.Name), patch.NotNull("role", in.Role), patch.NotNull("isActive", in.IsActive)} {
		if err != nil {
			return nil, err
		}
	}
	changes := map[string]any{}
	if v, ok := in.Name.Get(); ok {
		name := strings.TrimSpace(v)
		if len(name) > 200 {
			return nil, apperr.Invalid("name", "must be at most 200 characters")
		}
		changes["name"] = name
	}
	if v, ok := in.Role.Get(); ok {
		if !rbac.Role(v).Valid() {
			return nil, apperr.Invalid("role", "must be one of: "+strings.Join(rbac.RoleNames(), ", "))
		}
		changes["role"] = v
	}
	if v, ok := in.IsActive.Get(); ok {
		changes["is_active"] = v
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if in.Role.Present() || in.IsActive.Present() {
			// Role and activation changes run one at a time, so the check
			// below cannot pass for two concurrent demotions of the last two
			// super_admins (and row locks taken in different orders cannot
			// deadlock).
			if err := tx.Exec("SELECT pg_advisory_xact_lock(?)", roleChangeLock).Error; err != nil {
				return err
			}
		}
		var a models.Admin
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&a, "id = ?", id).Error; err != nil {
			return err
		}
		if err := keepOneSuperAdmin(tx, &a, in); err != nil {
			return err
		}
		if err := idempotency.RecordChange(uow.Within(ctx, tx), id.String()); err != nil {
			return err
		}
		if len(changes) > 0 {
			if err := tx.Model(&a).Updates(changes).Error; err != nil {
				return err
			}
		}
		if active, ok := in.IsActive.Get(); ok && !active {
			if err := tx.Where("admin_id = ?", id).Delete(&models.AdminSession{}).Error; err != nil {
				return err
			}
			return tx.Where("admin_id = ?", id).Delete(&models.AdminLoginChallenge{}).Error
		}
		return nil
	})
	if err != nil {
		return nil, database.Translate(err, "admin")
	}
	if len(changes) > 0 {
		s.stamps.Changed(ctx, id)
	}
	return s.Get(ctx, id)
}

// roleChangeLock is the advisory lock key serializing role and activation
// changes of admins.
const roleChangeLock = 727301

// keepOneSuperAdmin refuses an update that would leave no active
// super_admin. The caller holds roleChangeLock.
func keepOneSuperAdmin(tx *gorm.DB, a *models.Admin, in UpdateInput) error {
	role, roleSet := in.Role.Get()
	active, activeSet := in.IsActive.Get()
	demoted := roleSet && role != string(rbac.SuperAdmin)
	deactivated := activeSet && !active
	if a.Role != string(rbac.SuperAdmin) || !a.IsActive || (!demoted && !deactivated) {
		return nil
	}
	var others int64
	err := tx.Model(&models.Admin{}).Where("role = ? AND is_active AND id <> ?", rbac.SuperAdmin, a.ID).Count(&others).Error
	if err != nil {
		return err
	}
	if others == 0 {
		return apperr.Conflictf("the last active super_admin cannot be demoted or deactivated")
	}
	return nil
}
