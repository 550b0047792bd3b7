package draft

import (
	"context"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ErrCompleted refuses a change to a completed draft, or to one whose
// payment link is payable.
func errLocked(status string) error {
	if status == StatusCompleted {
		return apperr.New(apperr.Conflict, "the draft order is completed and cannot change").
			WithDetails(map[string]any{"status": status})
	}
	return apperr.New(apperr.Conflict, "the draft order has a payable payment link and cannot change until it is paid or expires").
		WithDetails(map[string]any{"status": status})
}

// Create writes a draft for by and answers it priced. Errors:
// VALIDATION_ERROR (an unknown variant, bundle or customer; a shipping
// method not offered is answered as an issue, not refused), FORBIDDEN (the
// email of a deactivated customer).
func (s *Service) Create(ctx context.Context, in Input, by audit.Actor) (*View, error) {
	if ref, ok := idempotency.RecordedChange(ctx); ok {
		return s.recorded(ctx, ref)
	}
	var v *View
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		tx := u.Tx()
		c, err := s.buyer(tx, in.Buyer)
		if err != nil {
			return err
		}
		if err := checkItems(tx, in.Items); err != nil {
			return err
		}
		d := &models.DraftOrder{ID: uuid.New(), CustomerID: c.ID, Email: c.Email, Name: in.Buyer.Name, Phone: in.Buyer.Phone,
			ShippingMethodID: in.ShippingMethodID, ShippingCost: in.ShippingCost, DiscountCode: in.DiscountCode,
			Note: in.Note, TaxBuyer: in.TaxBuyer, CreatedAt: s.now(), UpdatedAt: s.now()}
		if in.Buyer.CustomerID != nil {
			d.Name, d.Phone = c.Name, c.Phone
		}
		if by.AdminID != uuid.Nil {
			id := by.AdminID
			d.CreatedBy = &id
		}
		if d.ShippingAddress, err = addressJSON(&in.ShippingAddress); err != nil {
			return err
		}
		if d.BillingAddress, err = addressJSON(in.BillingAddress); err != nil {
			return err
		}
		if err := tx.Create(d).Error; err != nil {
			return database.Translate(err, "draft order")
		}
		if err := tx.Create(itemRows(d.ID, in.Items)).Error; err != nil {
			return database.Translate(err, "draft order")
		}
		if err := idempotency.RecordChange(u, d.ID.String()); err != nil {
			return err
		}
		// Read back, so that its times are as stored, as a retry reads them.
		if err := tx.Take(d, "id = ?", d.ID).Error; err != nil {
			return fmt.Errorf("draft.create: %w", err)
		}
		p, err := s.price(ctx, tx, d, c)
		if err != nil {
			return err
		}
		recordOverrides(by, p)
		if err := audit.Stage(u, by.Audit, d.ID.String()); err != nil {
			return err
		}
		v, err = s.view(d, p, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// Update applies patch to draft id. Errors: NOT_FOUND, CONFLICT (completed,
// or a payable link), VALIDATION_ERROR and FORBIDDEN as Create.
func (s *Service) Update(ctx context.Context, id uuid.UUID, patch Patch, by audit.Actor) (*View, error) {
	if _, ok := idempotency.RecordedChange(ctx); ok {
		return s.Get(ctx, id)
	}
	var v *View
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		tx := u.Tx()
		d, sess, err := s.lockOpen(tx, id)
		if err != nil {
			return err
		}
		updates := map[string]any{"updated_at": s.now()}
		if patch.Buyer != nil {
			c, err := s.buyer(tx, *patch.Buyer)
			if err != nil {
				return err
			}
			name, phone := patch.Buyer.Name, patch.Buyer.Phone
			if patch.Buyer.CustomerID != nil {
				name, phone = c.Name, c.Phone
			}
			updates["customer_id"], updates["email"], updates["name"], updates["phone"] = c.ID, c.Email, name, phone
		}
		if patch.ShippingAddress != nil {
			updates["shipping_address"], _ = addressJSON(patch.ShippingAddress)
		}
		if patch.BillingAddress != nil {
			updates["billing_address"], _ = addressJSON(patch.BillingAddress)
		}
		if patch.ShippingMethodID != nil || patch.ShippingCost != nil {
			// One or the other decides the shipping: naming one drops the other.
			updates["shipping_method_id"], updates["shipping_cost"] = patch.ShippingMethodID, patch.ShippingCost
		}
		if patch.DiscountCode != nil {
			var code *string
			if c := strings.TrimSpace(*patch.DiscountCode); c != "" {
				code = &c
			}
			updates["discount_code"] = code
		}
		if patch.TaxBuyer != nil {
			updates["buyer_gstin"], updates["buyer_name"] = patch.TaxBuyer.BuyerGSTIN, patch.TaxBuyer.BuyerName
		}
		if patch.Note != nil {
			updates["note"] = *patch.Note
		}
		if patch.Items != nil {
			if err := checkItems(tx, *patch.Items); err != nil {
				return err
			}
			if err := tx.Exec(`DELETE FROM draft_order_items WHERE draft_order_id = ?`, id).Error; err != nil {
				return fmt.Errorf("draft.update: %w", err)
			}
			if err := tx.Create(itemRows(id, *patch.Items)).Error; err != nil {
				return database.Translate(err, "draft order")
			}
		}
		if err := tx.Model(&models.DraftOrder{}).Where("id = ?", id).Updates(updates).Error; err != nil {
			return database.Translate(err, "draft order")
		}
		if err := idempotency.RecordChange(u, id.String()); err != nil {
			return err
		}
		if err := tx.Take(d, "id = ?", id).Error; err != nil {
			return fmt.Errorf("draft.update: %w", err)
		}
		c, err := s.customerOf(tx, d.CustomerID)
		if err != nil {
			return err
		}
		p, err := s.price(ctx, tx, d, c)
		if err != nil {
			return err
		}
		recordOverrides(by, p)
		if err := audit.Stage(u, by.Audit, id.String()); err != nil {
			return err
		}
		v, err = s.view(d, p, sess)
		return err
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// Delete deletes draft id. Errors: NOT_FOUND, CONFLICT (completed, or a
// payable link).
func (s *Service) Delete(ctx context.Context, id uuid.UUID, by audit.Actor) error {
	if _, ok := idempotency.RecordedChange(ctx); ok {
		return nil
	}
	return s.units.Run(ctx, func(u *uow.Unit) error {
		tx := u.Tx()
		d, _, err := s.lockOpen(tx, id)
		if err != nil {
			return err
		}
		if err := tx.Exec(`DELETE FROM draft_orders WHERE id = ?`, id).Error; err != nil {
			return fmt.Errorf("draft.delete: %w", err)
		}
		if d.CartID != nil && d.CheckoutSessionID == nil {
			if err := tx.Exec(`DELETE FROM carts WHERE id = ?`, *d.CartID).Error; err != nil {
				return fmt.Errorf("draft.delete: %w", err)
			}
		}
		if err := idempotency.RecordChange(u, id.String()); err != nil {
			return err
		}
		return audit.Stage(u, by.Audit, id.String())
	})
}

// A keyed write of a draft records the draft under its key in the unit that
// makes the change, and starts by asking RecordedChange: retried after its
// process died, it answers with the draft as it is instead of writing
// another, changing it again, finding it gone or completed (404, 409).
// Without a key (the worker, the scheduler) nothing is recorded.

// recorded answers a retried write with the draft ref its first run made.
// Errors: NOT_FOUND.
func (s *Service) recorded(ctx context.Context, ref string) (*View, error) {
	id, err := uuid.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("draft: recorded change %q: %w", ref, err)
	}
	return s.Get(ctx, id)
}

// lockOpen locks draft id and refuses it unless it is open. Errors:
// NOT_FOUND, CONFLICT.
func (s *Service) lockOpen(tx *gorm.DB, id uuid.UUID) (*models.DraftOrder, *models.CheckoutSession, error) {
	var d models.DraftOrder
	err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&d, "id = ?", id).Error
	if database.IsNotFound(err) {
		return nil, nil, apperr.Missing("draft order")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("draft.lock: %w", err)
	}
	sess, err := s.sessionOf(tx, &d)
	if err != nil {
		return nil, nil, err
	}
	if st := s.statusOf(&d, sess); st != StatusOpen {
		return nil, nil, errLocked(st)
	}
	return &d, sess, nil
}

// statusOf is the draft's status (view's rule, without pricing it).
func (s *Service) statusOf(d *models.DraftOrder, sess *models.CheckoutSession) string {
	if d.OrderID != nil || (sess != nil && sess.State == models.CheckoutCompleted) {
		return StatusCompleted
	}
	if sess != nil && linkStatus(sess, s.now()) == LinkPending {
		return StatusAwaitingPayment
	}
	return StatusOpen
}

// sessionOf reads the draft's latest link session, nil when none.
func (s *Service) sessionOf(tx *gorm.DB, d *models.DraftOrder) (*models.CheckoutSession, error) {
	if d.CheckoutSessionID == nil {
		return nil, nil
	}
	var sess models.CheckoutSession
	err := tx.Take(&sess, "id = ?", *d.CheckoutSessionID).Error
	if database.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("draft.session: %w", err)
	}
	return &sess, nil
}

// buyer returns the customer a draft is for: customer b.CustomerID, the
// guest record of b.Email, or, without an email, the guest record of
// b.Phone (a phone order: customer.GuestRecordByPhone). Errors:
// VALIDATION_ERROR (unknown customer), FORBIDDEN (deactivated).
func (s *Service) buyer(tx *gorm.DB, b Buyer) (*models.Customer, error) {
	if b.CustomerID == nil && b.Email == "" {
		return customer.GuestRecordByPhone(tx, b.Phone, b.Name)
	}
	if b.CustomerID == nil {
		return customer.GuestRecord(tx, b.Email, b.Name, b.Phone)
	}
	var c models.Customer
	err := tx.Take(&c, "id = ?", *b.CustomerID).Error
	if database.IsNotFound(err) {
		return nil, apperr.Invalid("customerId", "is not a customer")
	}
	if err != nil {
		return nil, fmt.Errorf("draft.customer: %w", err)
	}
	if !c.IsActive {
		return nil, customer.ErrDeactivated
	}
	return &c, nil
}

// customerOf reads the draft's customer.
func (s *Service) customerOf(tx *gorm.DB, id uuid.UUID) (*models.Customer, error) {
	var c models.Customer
	if err := tx.Take(&c, "id = ?", id).Error; err != nil {
		return nil, fmt.Errorf("draft.customer: %w", err)
	}
	return &c, nil
}

// recordOverrides adds the hand-set prices, with the prices they replaced,
// to the audit entry: who priced what at how much is on record.
func recordOverrides(by audit.Actor, p *priced) {
	if by.Audit == nil {
		return
	}
	var out []map[string]any
	for _, l := range p.lines.Lines {
		if l.Overridden {
			out = append(out, map[string]any{"variantId": l.VariantID.String(), "price": l.UnitPrice, "listPrice": l.ListPrice})
		}
	}
	if len(out) > 0 {
		if by.Audit.Metadata == nil {
			by.Audit.Metadata = map[string]any{}
		}
		by.Audit.Metadata["priceOverrides"] = out
	}
}
