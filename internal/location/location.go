// Package location owns stock locations (docs/DECISIONS.md "Stock
// locations"): where units are kept, the GST registration and invoice
// series of each, and whether its units sell online. The units themselves
// move in package stock; a change of whether a location sells moves its
// units in or out of the variants' inventory there (stock.MoveSelling).
package location

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

const resLocation = "location"

// Address is where a location is.
type Address struct {
	Line1   string `json:"line1"`
	City    string `json:"city"`
	State   string `json:"state"`
	Pincode string `json:"pincode"`
}

// Location is a place stock is kept.
type Location struct {
	ID      uuid.UUID
	Name    string
	Code    string
	Address Address
	// GSTIN is the location's own registration: required to ship from a
	// state other than the default location's; nil uses the store's.
	GSTIN *string
	// FulfilsOnline and IsActive together make its units part of what
	// checkout sells.
	FulfilsOnline bool
	// Priority orders the locations a fulfilment is taken from by default:
	// lowest number first.
	Priority  int
	IsActive  bool
	IsDefault bool
	// The prefixes of its invoices and credit notes; nil: the store's.
	InvoicePrefix, CreditNotePrefix *string
	// PickupCode is its pickup location's name at the courier
	// (docs/DECISIONS.md "Couriers"); nil: parcels from it are not booked.
	PickupCode           *string
	CreatedAt, UpdatedAt time.Time
}

// row is a locations row.
type row struct {
	ID                              uuid.UUID
	Name, Code                      string
	Address                         []byte
	GSTIN                           *string `gorm:"column:gstin"`
	FulfilsOnline                   bool
	Priority                        int
	IsActive, IsDefault             bool
	InvoicePrefix, CreditNotePrefix *string
	PickupCode                      *string
	CreatedAt, UpdatedAt            time.Time
}

func (r *row) location() (Location, error) {
	l := Location{ID: r.ID, Name: r.Name, Code: r.Code, GSTIN: r.GSTIN, FulfilsOnline: r.FulfilsOnline, Priority: r.Priority,
		IsActive: r.IsActive, IsDefault: r.IsDefault, InvoicePrefix: r.InvoicePrefix, CreditNotePrefix: r.CreditNotePrefix,
		PickupCode: r.PickupCode, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
	if err := json.Unmarshal(r.Address, &l.Address); err != nil {
		return l, fmt.Errorf("location: address: %w", err)
	}
	return l, nil
}

// Service reads and changes locations.
type Service struct {
	db *gorm.DB
}

// New returns the service.
func New(db *gorm.DB) *Service { return &Service{db: db} }

const columns = `id, name, code, address, gstin, fulfils_online, priority, is_active, is_default, invoice_prefix,
	credit_note_prefix, pickup_code, created_at, updated_at`

// List returns a page of locations in the order fulfilments take them
// (priority, then age) and their count.
func (s *Service) List(ctx context.Context, w paging.Window) ([]Location, int64, error) {
	var total int64
	db := s.db.WithContext(ctx)
	if err := db.Raw(`SELECT count(*) FROM locations`).Scan(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("location.list: %w", err)
	}
	var rows []row
	if err := db.Raw(`SELECT `+columns+` FROM locations ORDER BY priority, created_at, id LIMIT ? OFFSET ?`,
		w.Limit, w.Offset).Scan(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("location.list: %w", err)
	}
	out := make([]Location, len(rows))
	for i := range rows {
		var err error
		if out[i], err = rows[i].location(); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// Get returns location id. Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*Location, error) {
	return get(s.db.WithContext(ctx), id, "")
}

// get reads location id in tx, with lock ("" or "FOR UPDATE").
func get(tx *gorm.DB, id uuid.UUID, lock string) (*Location, error) {
	var rows []row
	if err := tx.Raw(`SELECT `+columns+` FROM locations WHERE id = ? `+lock, id).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("location.get: %w", err)
	}
	if len(rows) == 0 {
		return nil, apperr.Missing(resLocation)
	}
	l, err := rows[0].location()
	return &l, err
}

// Input is a new location.
type Input struct {
	Name, Code                      string
	Address                         Address
	GSTIN                           *string
	FulfilsOnline                   bool
	Priority                        int
	IsActive                        bool
	InvoicePrefix, CreditNotePrefix *string
	PickupCode                      *string
}

var (
	codePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)
	// The characters a GST document number's prefix may hold, as the tax
	// settings allow.
	prefixPattern = regexp.MustCompile(`^[A-Za-z0-9-]{1,5}$`)
)

// check normalizes and validates in. Errors: VALIDATION_ERROR naming the
// field.
func (in *Input) check() error {
	in.Name, in.Code = strings.TrimSpace(in.Name), strings.TrimSpace(in.Code)
	switch {
	case in.Name == "" || len(in.Name) > 100:
		return apperr.Invalid("name", "must be 1 to 100 characters")
	case !codePattern.MatchString(in.Code):
		return apperr.Invalid("code", "must be 1 to 32 letters, digits, - or _")
	case in.Priority < 0 || in.Priority > 1_000_000:
		return apperr.Invalid("priority", "must be between 0 and 1000000")
	}
	st, ok := region.Canonical(in.Address.State)
	if !ok {
		return apperr.Invalid("address.state", "is not an Indian state or union territory")
	}
	in.Address.State = st
	for f, v := range map[string]*string{"address.line1": &in.Address.Line1, "address.city": &in.Address.City} {
		if *v = strings.TrimSpace(*v); len(*v) > 200 {
			return apperr.Invalid(f, "must be at most 200 characters")
		}
	}
	if in.Address.Pincode = strings.TrimSpace(in.Address.Pincode); in.Address.Pincode != "" && !pincode.MatchString(in.Address.Pincode) {
		return apperr.Invalid("address.pincode", "must be six digits")
	}
	if in.GSTIN != nil {
		g := gstin.Normalize(*in.GSTIN)
		if err := gstin.Check("gstin", g, in.Address.State); err != nil {
			return err
		}
		in.GSTIN = &g
	}
	if in.PickupCode != nil {
		c := strings.TrimSpace(*in.PickupCode)
		if c == "" || len(c) > 64 {
			return apperr.Invalid("pickupCode", "must be 1 to 64 characters: the pickup location's name at the courier")
		}
		in.PickupCode = &c
	}
	for f, p := range map[string]*string{"invoicePrefix": in.InvoicePrefix, "creditNotePrefix": in.CreditNotePrefix} {
		if p == nil {
			continue
		}
		if !prefixPattern.MatchString(*p) {
			return apperr.Invalid(f, "must be 1 to 5 letters, digits or -")
		}
		if err := invoice.TransferPrefixTaken(f, *p); err != nil {
			return err
		}
	}
	return nil
}

var pincode = regexp.MustCompile(`^[1-9][0-9]{5}$`)

// Create adds a location (never the default: that is the one the upgrade
// made). A keyed request retried after its process died answers with the
// location it made (idempotency.RecordedRow). Errors: VALIDATION_ERROR, CONFLICT (code
// taken).
func (s *Service) Create(ctx context.Context, in Input) (*Location, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.Get(ctx, id)
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	addr, _ := json.Marshal(in.Address)
	var id uuid.UUID
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Raw(`INSERT INTO locations (name, code, address, gstin, fulfils_online, priority, is_active,
			invoice_prefix, credit_note_prefix, pickup_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			in.Name, in.Code, string(addr), in.GSTIN, in.FulfilsOnline, in.Priority, in.IsActive, in.InvoicePrefix, in.CreditNotePrefix,
			in.PickupCode).
			Row().Scan(&id)
		if err != nil {
			return err
		}
		if err := checkPrefixes(tx, id, in.CreditNotePrefix != nil); err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	if err != nil {
		return nil, writeError(err)
	}
	return s.Get(ctx, id)
}

// writeError translates a failed write: a taken code is a CONFLICT naming
// code.
func writeError(err error) error {
	if database.IsUnique(err) {
		return apperr.Wrap(apperr.Conflict, "another location has this code", err).WithDetails(map[string]any{"field": "code"})
	}
	return database.Translate(err, resLocation)
}

// Patch is a change of a location; absent fields stay.
type Patch struct {
	Name, Code                      patch.Field[string]
	Address                         patch.Field[Address]
	GSTIN                           patch.Field[string]
	FulfilsOnline, IsActive         patch.Field[bool]
	Priority                        patch.Field[int]
	InvoicePrefix, CreditNotePrefix patch.Field[string]
	PickupCode                      patch.Field[string]
}

// Update changes location id. When it starts or stops selling (active and
// fulfilling online), its units move into or out of the variants'
// inventory in the same transaction (stock.MoveSelling). The default
// location always sells and keeps its state: the state is the store's, the
// one checkout splits GST against. Errors: NOT_FOUND, VALIDATION_ERROR,
// CONFLICT (code taken; the default location's state or selling; units
// that orders need). A keyed request retried after its process died
// answers with the location as it is, changing nothing (idempotency.RecordedRow).
func (s *Service) Update(ctx context.Context, id uuid.UUID, p Patch) (*Location, error) {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.Get(ctx, id)
	}
	for _, f := range []struct {
		name string
		null bool
	}{{"name", p.Name.IsNull()}, {"code", p.Code.IsNull()}, {"address", p.Address.IsNull()},
		{"fulfilsOnline", p.FulfilsOnline.IsNull()}, {"isActive", p.IsActive.IsNull()}, {"priority", p.Priority.IsNull()}} {
		if f.null {
			return nil, apperr.Invalid(f.name, "cannot be null")
		}
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		cur, err := get(tx, id, "FOR UPDATE")
		if err != nil {
			return err
		}
		in := Input{Name: cur.Name, Code: cur.Code, Address: cur.Address, GSTIN: cur.GSTIN, FulfilsOnline: cur.FulfilsOnline,
			Priority: cur.Priority, IsActive: cur.IsActive, InvoicePrefix: cur.InvoicePrefix, CreditNotePrefix: cur.CreditNotePrefix,
			PickupCode: cur.PickupCode}
		p.Name.ApplyTo(&in.Name)
		p.Code.ApplyTo(&in.Code)
		p.Address.ApplyTo(&in.Address)
		p.FulfilsOnline.ApplyTo(&in.FulfilsOnline)
		p.IsActive.ApplyTo(&in.IsActive)
		p.Priority.ApplyTo(&in.Priority)
		in.GSTIN = optional(p.GSTIN, in.GSTIN)
		in.InvoicePrefix = optional(p.InvoicePrefix, in.InvoicePrefix)
		in.CreditNotePrefix = optional(p.CreditNotePrefix, in.CreditNotePrefix)
		in.PickupCode = optional(p.PickupCode, in.PickupCode)
		if err := in.check(); err != nil {
			return err
		}
		if cur.IsDefault {
			if !in.IsActive || !in.FulfilsOnline {
				return apperr.Conflictf("the default location always sells online: it takes every stock operation that names no location").
					WithDetails(map[string]any{"field": "isActive"})
			}
			if in.Address.State != cur.Address.State {
				return apperr.Conflictf("the default location's state is the store's state, which checkout splits GST against; it cannot change").
					WithDetails(map[string]any{"field": "address.state"})
			}
		}
		was, now := cur.IsActive && cur.FulfilsOnline, in.IsActive && in.FulfilsOnline
		if was != now {
			if err := stock.MoveSelling(tx, id, now); err != nil {
				return err
			}
		}
		addr, _ := json.Marshal(in.Address)
		if err := tx.Exec(`UPDATE locations SET name = ?, code = ?, address = ?, gstin = ?, fulfils_online = ?, priority = ?,
			is_active = ?, invoice_prefix = ?, credit_note_prefix = ?, pickup_code = ?, updated_at = now() WHERE id = ?`,
			in.Name, in.Code, string(addr), in.GSTIN, in.FulfilsOnline, in.Priority, in.IsActive, in.InvoicePrefix,
			in.CreditNotePrefix, in.PickupCode, id).Error; err != nil {
			return err
		}
		_, setCredit := p.CreditNotePrefix.Get()
		if err := checkPrefixes(tx, id, setCredit); err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	if err != nil {
		return nil, writeError(err)
	}
	return s.Get(ctx, id)
}

// checkPrefixes refuses, in the transaction that wrote location id, a
// configuration where one prefix numbers both invoices and credit notes
// under one GSTIN (invoice.FindPrefixClash), as the store's tax settings
// refuse it. The error names creditNotePrefix when the location's credit
// notes take part and the write set that prefix, else the prefix of the
// location's that takes part. Errors: VALIDATION_ERROR.
func checkPrefixes(tx *gorm.DB, id uuid.UUID, setCredit bool) error {
	clash, err := invoice.FindPrefixClash(tx, &id)
	switch {
	case err != nil || clash == nil:
		return err
	case clash.CreditBy != nil && *clash.CreditBy == id && setCredit,
		clash.InvoiceBy == nil || *clash.InvoiceBy != id:
		return clash.Refusal("creditNotePrefix")
	}
	return clash.Refusal("invoicePrefix")
}

// optional applies a nullable text field to cur.
func optional(f patch.Field[string], cur *string) *string {
	if f.IsNull() {
		return nil
	}
	if v, ok := f.Get(); ok {
		return &v
	}
	return cur
}

// Delete removes location id when nothing needs it. Its past fulfilments,
// returns and transfers keep their rows without it. Errors: NOT_FOUND,
// CONFLICT (the default location; units on hand, live fulfilments or
// transfers in transit, details counting them). A keyed request retried
// after its process died answers as the delete did (idempotency.RecordedRow).
func (s *Service) Delete(ctx context.Context, id uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		cur, err := get(tx, id, "FOR UPDATE")
		if err != nil {
			return err
		}
		if cur.IsDefault {
			return apperr.Conflictf("the default location cannot be deleted")
		}
		var use struct{ Units, Fulfillments, Transfers int64 }
		if err := tx.Raw(`SELECT
			(SELECT coalesce(sum(on_hand), 0) FROM stock_levels WHERE location_id = ?) AS units,
			(SELECT count(*) FROM fulfillments WHERE location_id = ? AND status = 'shipped') AS fulfillments,
			(SELECT count(*) FROM stock_transfers WHERE (from_location_id = ? OR to_location_id = ?) AND status IN ('in_transit', 'partially_received')) AS transfers`,
			id, id, id, id).Scan(&use).Error; err != nil {
			return fmt.Errorf("location.delete: %w", err)
		}
		if use.Units > 0 || use.Fulfillments > 0 || use.Transfers > 0 {
			return apperr.Conflictf("the location holds stock, live fulfilments or transfers in transit; move them or deactivate it").
				WithDetails(map[string]any{"unitsOnHand": use.Units, "liveFulfillments": use.Fulfillments, "transfersInTransit": use.Transfers})
		}
		if err := tx.Exec(`DELETE FROM locations WHERE id = ?`, id).Error; err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
}

// HomeState is the default location's state: the store's state, which
// checkout splits GST against (CGST and SGST within it, IGST outside).
// fallback (STORE_STATE) answers when there is no default location yet.
func HomeState(ctx context.Context, db *gorm.DB, fallback string) string {
	var st *string
	if err := db.WithContext(ctx).Raw(`SELECT address->>'state' FROM locations WHERE is_default`).Scan(&st).Error; err != nil ||
		st == nil || *st == "" {
		return fallback
	}
	return *st
}
