// Package auditlog reads the administrator activity log that package audit
// writes, with filters, newest first.
package auditlog

import (
	"context"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Service reads audit entries.
type Service struct{ db *gorm.DB }

// New returns a Service on db.
func New(db *gorm.DB) *Service { return &Service{db: db} }

// Filter narrows List. Zero fields do not filter.
type Filter struct {
	AdminID *uuid.UUID
	// Action is matched exactly, or as a prefix when it ends in ".*"
	// ("auth.*" matches every auth action).
	Action   string
	EntityID string
	// From is inclusive, To exclusive.
	From, To *time.Time
}

// List returns a page of entries matching f, newest first, and the total.
// Errors: SERVICE_UNAVAILABLE.
func (s *Service) List(ctx context.Context, f Filter, offset, limit int) ([]models.AdminAuditLog, int64, error) {
	q := s.db.WithContext(ctx).Model(&models.AdminAuditLog{})
	if f.AdminID != nil {
		q = q.Where("admin_id = ?", *f.AdminID)
	}
	if prefix, ok := strings.CutSuffix(f.Action, ".*"); ok {
		q = q.Where(`action LIKE ? ESCAPE '\'`, escapeLike(prefix)+".%")
	} else if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if f.EntityID != "" {
		q = q.Where("entity_id = ?", f.EntityID)
	}
	if f.From != nil {
		q = q.Where("created_at >= ?", *f.From)
	}
	if f.To != nil {
		q = q.Where("created_at < ?", *f.To)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, database.Translate(err, "audit entry")
	}
	var rows []models.AdminAuditLog
	err := q.Order("created_at DESC, id DESC").Offset(offset).Limit(limit).Find(&rows).Error
	return rows, total, database.Translate(err, "audit entry")
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
