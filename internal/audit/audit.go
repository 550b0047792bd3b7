// Package audit writes and reads the administrator activity log. Entries are
// append-only (a trigger refuses UPDATE and DELETE) and their metadata is
// scrubbed of passwords, tokens, secrets and codes at any depth.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Entry is one audited action.
type Entry struct {
	AdminID   *uuid.UUID
	Action    string // <entity>.<verb>
	EntityID  string
	Metadata  map[string]any
	IP        string
	UserAgent string
}

// Record writes e. Metadata is scrubbed before it is stored.
func Record(ctx context.Context, db *gorm.DB, e Entry) error {
	row, err := e.row()
	if err != nil {
		return err
	}
	if err := db.WithContext(ctx).Create(&row).Error; err != nil {
		return fmt.Errorf("audit.record: %w", err)
	}
	return nil
}

// row is e as stored: metadata scrubbed, headers made storable.
func (e Entry) row() (models.AdminAuditLog, error) {
	meta, err := json.Marshal(Scrub(e.Metadata))
	if err != nil {
		return models.AdminAuditLog{}, fmt.Errorf("audit.record: %w", err)
	}
	row := models.AdminAuditLog{
		AdminID:   e.AdminID,
		Action:    e.Action,
		Metadata:  meta,
		IPAddress: clean(e.IP, 64),
		UserAgent: clean(e.UserAgent, 512),
		CreatedAt: time.Now().UTC(),
	}
	if id := clean(e.EntityID, 128); id != "" {
		row.EntityID = &id
	}
	return row, nil
}

// clean makes a client-supplied header storable: valid UTF-8, no NUL bytes
// (Postgres text refuses them, and the entry would be lost), bounded length.
func clean(s string, max int) string {
	s = strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max], "")
	}
	return s
}

// Scrub returns v with every sensitive key removed, at any depth of maps and
// slices. v is not modified. A nil map becomes an empty object.
func Scrub(v map[string]any) map[string]any {
	out := make(map[string]any, len(v))
	for k, val := range v {
		if IsSensitiveKey(k) {
			continue
		}
		out[k] = scrubValue(val)
	}
	return out
}

func scrubValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return Scrub(t)
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = scrubValue(x)
		}
		return out
	default:
		return v
	}
}

var sensitiveParts = []string{"password", "passwd", "token", "secret", "otp", "backupcode", "authorization", "cookie", "apikey", "privatekey", "signature"}

// IsSensitiveKey reports whether a metadata key names a credential. Keys are
// compared without case, '_' or '-', so "new_password", "refreshToken" and
// "X-Api-Key" all match; a bare "code" (a TOTP or backup code) matches too.
func IsSensitiveKey(k string) bool {
	n := strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(k))
	if n == "code" || n == "codes" {
		return true
	}
	for _, p := range sensitiveParts {
		if strings.Contains(n, p) {
			return true
		}
	}
	return false
}
