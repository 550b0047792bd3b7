package messaging

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"gorm.io/gorm"
)

// Settings are the store's message settings (GET/PUT
// /admin/settings/messages): for each event, the channels it is sent on
// and the templates it is sent with.
type Settings struct {
	Events map[string]EventSettings `json:"events"`
}

// EventSettings are one event's channels and templates.
type EventSettings struct {
	// Channels are the channels the event is sent on (sms, whatsapp);
	// empty: the event sends nothing.
	Channels []string         `json:"channels"`
	SMS      SMSTemplate      `json:"sms"`
	WhatsApp WhatsAppTemplate `json:"whatsapp"`
}

// SMSTemplate is an SMS template as MSG91 and the DLT platform know it.
type SMSTemplate struct {
	TemplateID    string `json:"templateId"`
	DLTTemplateID string `json:"dltTemplateId"`
	SenderID      string `json:"senderId"`
}

// WhatsAppTemplate is an approved WhatsApp template.
type WhatsAppTemplate struct {
	Template string `json:"template"`
	Language string `json:"language"`
}

// DefaultSettings are the settings before an administrator sets any: every
// event with the demo templates and no channel, so nothing is sent.
func DefaultSettings() Settings {
	s := Settings{Events: make(map[string]EventSettings, len(Events))}
	for _, e := range Events {
		t := DemoTemplates[e]
		s.Events[e] = EventSettings{Channels: []string{},
			SMS:      SMSTemplate{TemplateID: t.SMSTemplateID, DLTTemplateID: t.DLTTemplateID, SenderID: t.SenderID},
			WhatsApp: WhatsAppTemplate{Template: t.WhatsAppName, Language: t.Language}}
	}
	return s
}

var (
	// A DLT content template id is the 19-digit number the DLT platform
	// gives a registered template.
	dltTemplateID = regexp.MustCompile(`^[0-9]{19}$`)
	// A transactional or service SMS header is 6 characters (TRAI TCCCPR
	// 2018, its DLT headers).
	senderID = regexp.MustCompile(`^[A-Za-z0-9]{6}$`)
	// MSG91 template ids and WhatsApp template names.
	templateID   = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	templateName = regexp.MustCompile(`^[a-z0-9_]{1,512}$`)
	language     = regexp.MustCompile(`^[a-z]{2,3}(_[A-Z]{2})?$`)
)

// Check validates s. Errors: VALIDATION_ERROR naming the field
// (events.<event>.sms.dltTemplateId, ...).
func (s *Settings) Check() error {
	for e, es := range s.Events {
		if _, ok := Variables[e]; !ok {
			return apperr.Invalid("events."+e, "is not an event: "+fmt.Sprint(Events))
		}
		f := "events." + e + "."
		seen := map[string]bool{}
		for _, c := range es.Channels {
			if c != SMS && c != WhatsApp {
				return apperr.Invalid(f+"channels", "must list sms and/or whatsapp")
			}
			if seen[c] {
				return apperr.Invalid(f+"channels", "names "+c+" twice")
			}
			seen[c] = true
		}
		if seen[SMS] || es.SMS != (SMSTemplate{}) {
			switch {
			case !templateID.MatchString(es.SMS.TemplateID):
				return apperr.Invalid(f+"sms.templateId", "must be the MSG91 template id (letters, digits, _ and -)")
			case !dltTemplateID.MatchString(es.SMS.DLTTemplateID):
				return apperr.Invalid(f+"sms.dltTemplateId", "must be the 19-digit DLT content template id")
			case !senderID.MatchString(es.SMS.SenderID):
				return apperr.Invalid(f+"sms.senderId", "must be the 6-character DLT header (sender id)")
			}
		}
		if seen[WhatsApp] || es.WhatsApp != (WhatsAppTemplate{}) {
			switch {
			case !templateName.MatchString(es.WhatsApp.Template):
				return apperr.Invalid(f+"whatsapp.template", "must be an approved template's name (a-z, 0-9 and _)")
			case !language.MatchString(es.WhatsApp.Language):
				return apperr.Invalid(f+"whatsapp.language", "must be a template language code such as en or en_US")
			}
		}
	}
	return nil
}

// loadSettings reads the settings in db (a transaction or not): the
// defaults with the stored events over them.
func loadSettings(db *gorm.DB) (Settings, error) {
	s := DefaultSettings()
	var raw []string
	if err := db.Raw(`SELECT events::text FROM message_settings WHERE id = 1`).Scan(&raw).Error; err != nil {
		return s, fmt.Errorf("messaging.settings: %w", err)
	}
	if len(raw) == 0 {
		return s, nil
	}
	var stored map[string]EventSettings
	if err := json.Unmarshal([]byte(raw[0]), &stored); err != nil {
		return s, fmt.Errorf("messaging.settings: %w", err)
	}
	for e, es := range stored {
		if _, ok := s.Events[e]; ok {
			if es.Channels == nil {
				es.Channels = []string{}
			}
			s.Events[e] = es
		}
	}
	return s, nil
}

// Settings returns the message settings in force.
func (s *Service) Settings(ctx context.Context) (*Settings, error) {
	out, err := loadSettings(s.db.WithContext(ctx))
	if err != nil {
		return nil, database.Translate(err, "message settings")
	}
	return &out, nil
}

// PutSettings validates in and makes its events the store's (events it
// does not name keep theirs); messages planned from then on follow it.
// Errors: VALIDATION_ERROR.
func (s *Service) PutSettings(ctx context.Context, in Settings) (*Settings, error) {
	if err := in.Check(); err != nil {
		return nil, err
	}
	db := s.db.WithContext(ctx)
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`INSERT INTO message_settings (id) VALUES (1) ON CONFLICT DO NOTHING`).Error; err != nil {
			return err
		}
		if err := tx.Exec(`SELECT 1 FROM message_settings WHERE id = 1 FOR UPDATE`).Error; err != nil {
			return err
		}
		cur, err := loadSettings(tx)
		if err != nil {
			return err
		}
		for e, es := range in.Events {
			if es.Channels == nil {
				es.Channels = []string{}
			}
			es.Channels = slices.Compact(es.Channels)
			cur.Events[e] = es
		}
		b, err := json.Marshal(cur.Events)
		if err != nil {
			return err
		}
		return tx.Exec(`UPDATE message_settings SET events = ?::jsonb, updated_at = ? WHERE id = 1`, string(b), time.Now().UTC()).Error
	})
	if err != nil {
		return nil, database.Translate(err, "message settings")
	}
	return s.Settings(ctx)
}
