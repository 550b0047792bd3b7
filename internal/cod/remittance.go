package cod

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// MaxRemittanceRows bounds one remittance file.
const MaxRemittanceRows = 5000

// Why a remittance row was not applied (the job result's reasons).
const (
	RowUnknownOrder   = "unknown_order"
	RowNotCOD         = "not_cod"
	RowAmountMismatch = "amount_mismatch"
	RowAlreadyPaid    = "already_paid"
	// RowCancelled: the order was cancelled (returned to origin) unpaid;
	// money remitted for it is for a person to look at.
	RowCancelled = "cancelled"
)

// RemittanceRow is one row of a courier's remittance.
type RemittanceRow struct {
	OrderNumber string
	Amount      money.Amount
	Reference   string
}

// RowFailure is a row not applied: its number (1-based, in file order),
// its order number and the reason.
type RowFailure struct {
	Row         int    `json:"row"`
	OrderNumber string `json:"orderNumber"`
	Reason      string `json:"reason"`
}

// Outcomes of a remittance row.
const (
	OutcomeApplied = "applied"
	OutcomeFailed  = "failed"
)

// RowOutcome is what became of one row: applied, or failed with its
// reason; the row as read, so staff see which line of the courier's file
// each is without opening it again.
type RowOutcome struct {
	Row         int          `json:"row"`
	OrderNumber string       `json:"orderNumber"`
	Amount      money.Amount `json:"amount"`
	Reference   string       `json:"reference"`
	Outcome     string       `json:"outcome"`
	Reason      string       `json:"reason,omitempty"`
}

// RemittanceResult is a remittance job's result (GET /admin/jobs/{id}):
// the counts, the rows not applied, and every row with its outcome.
type RemittanceResult struct {
	Applied int          `json:"applied"`
	Failed  []RowFailure `json:"failed"`
	Rows    []RowOutcome `json:"rows"`
}

// Remittances applies courier remittance files as jobs.
type Remittances struct {
	db    *gorm.DB
	units uow.Runner
	queue tasks.Enqueuer
}

// NewRemittances returns the service.
func NewRemittances(db *gorm.DB, queue tasks.Enqueuer, log *slog.Logger) *Remittances {
	return &Remittances{db: db, units: uow.NewRunner(db, queue, log), queue: queue}
}

// Submit checks rows (1 to MaxRemittanceRows; each with an order number,
// an amount above zero and a reference of at most 100 characters) and
// queues the job that applies them; it returns the job id. Errors:
// VALIDATION_ERROR naming rows[i].field, SERVICE_UNAVAILABLE (queue).
func (s *Remittances) Submit(ctx context.Context, rows []RemittanceRow, adminID uuid.UUID) (string, error) {
	if len(rows) == 0 || len(rows) > MaxRemittanceRows {
		return "", apperr.Invalid("rows", "must hold 1 to 5000 rows")
	}
	p := tasks.CODRemittancePayload{Rows: make([]tasks.RemittanceRow, len(rows)), AdminID: adminID.String()}
	for i, r := range rows {
		field := func(name string) string { return fmt.Sprintf("rows[%d].%s", i, name) }
		number := strings.TrimSpace(r.OrderNumber)
		switch {
		case number == "" || len(number) > 40:
			return "", apperr.Invalid(field("orderNumber"), "is required, at most 40 characters")
		case r.Amount <= 0 || r.Amount > money.MaxAmount:
			return "", apperr.Invalid(field("amount"), "must be greater than 0")
		case len(r.Reference) > 100:
			return "", apperr.Invalid(field("reference"), "must be at most 100 characters")
		}
		p.Rows[i] = tasks.RemittanceRow{OrderNumber: number, Amount: int64(r.Amount), Reference: strings.TrimSpace(r.Reference)}
	}
	jobID, keyed := remittanceJobID(ctx)
	task, opts := tasks.NewCODRemittanceTask(jobID, p)
	if _, err := tasks.Submit(ctx, s.queue, task, opts...); err != nil && !(keyed && errors.Is(err, asynq.ErrTaskIDConflict)) {
		return "", apperr.Wrap(apperr.Unavailable, "the job queue is unavailable; nothing was queued", err)
	}
	return jobID, nil
}

// remittanceJobID is the id of the job a remittance queues: for a keyed
// request (keyed true) one derived from its key, the same for every retry
// of it, so that a retry after the process died between queueing the job
// and keeping the answer finds the job queued (its task id taken) and
// answers with it; Apply pays each row once per job however often it runs
// (paidByRow). Else a new one.
func remittanceJobID(ctx context.Context) (id string, keyed bool) {
	key := idempotency.GatewayKey(ctx, "cod_remittance")
	if key == "" {
		return uuid.NewString(), false
	}
	return uuid.NewSHA1(uuid.NameSpaceOID, []byte(key)).String(), true
}

// Apply applies the rows of job jobID one by one, each in its own unit of
// work with its order locked: a COD order whose payment is pending and
// whose due amount the row carries is paid (order.StageOfflinePayment,
// method cod, the row's reference); any other row is reported with its
// reason and records nothing. A row whose order is already paid is
// already_paid, whether an earlier row of the file or an earlier file paid
// it, unless the payment is this job's own row's: then a run stopped
// midway and started again counts it applied, so a retried job reports what
// one run would have and pays nothing twice. An infrastructure failure
// stops the run (the job is retried).
func (s *Remittances) Apply(ctx context.Context, jobID string, adminID uuid.UUID, rows []tasks.RemittanceRow) (*RemittanceResult, error) {
	res := &RemittanceResult{Failed: []RowFailure{}, Rows: make([]RowOutcome, 0, len(rows))}
	for i, r := range rows {
		n := i + 1
		reason, err := s.applyRow(ctx, jobID, n, adminID, r)
		if err != nil {
			return nil, fmt.Errorf("cod.remittance: row %d: %w", n, err)
		}
		out := RowOutcome{Row: n, OrderNumber: r.OrderNumber, Amount: money.Amount(r.Amount), Reference: r.Reference, Outcome: OutcomeApplied}
		if reason == "" {
			res.Applied++
		} else {
			out.Outcome, out.Reason = OutcomeFailed, reason
			res.Failed = append(res.Failed, RowFailure{Row: n, OrderNumber: r.OrderNumber, Reason: reason})
		}
		res.Rows = append(res.Rows, out)
	}
	return res, nil
}

// applyRow applies row n; it returns the reason it was not applied ("" when
// it was, now or by an earlier run of the job).
func (s *Remittances) applyRow(ctx context.Context, jobID string, n int, adminID uuid.UUID, r tasks.RemittanceRow) (string, error) {
	var reason string
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		reason = ""
		var o models.Order
		err := u.Tx().Clauses(clause.Locking{Strength: "UPDATE"}).Take(&o, "order_number = ?", r.OrderNumber).Error
		if database.IsNotFound(err) {
			reason = RowUnknownOrder
			return nil
		}
		if err != nil {
			return err
		}
		if o.PaymentMethod != models.PaymentCOD {
			reason = RowNotCOD
			return nil
		}
		if o.PaymentStatus != models.PaymentPending {
			mine, err := paidByRow(u.Tx(), o.ID, jobID, n)
			if err != nil {
				return err
			}
			if !mine {
				reason = RowAlreadyPaid
			}
			return nil
		}
		if o.Status == models.OrderCancelled {
			reason = RowCancelled
			return nil
		}
		if money.Amount(r.Amount) != o.Total-o.PaidTotal {
			reason = RowAmountMismatch
			return nil
		}
		job, row := jobID, n
		_, err = order.StageOfflinePayment(u, &o, order.OfflinePayment{Method: "cod", Amount: money.Amount(r.Amount),
			Reference: r.Reference, AdminID: adminID, RemittanceJob: &job, RemittanceRow: &row})
		var e *apperr.Error
		if errors.As(err, &e) {
			return fmt.Errorf("unexpected refusal: %w", err)
		}
		return err
	})
	return reason, err
}

// paidByRow reports whether order orderID's offline payment was recorded by
// row n of job jobID.
func paidByRow(tx *gorm.DB, orderID uuid.UUID, jobID string, n int) (bool, error) {
	var mine bool
	err := tx.Raw(`SELECT EXISTS (SELECT 1 FROM payments WHERE order_id = ? AND provider = ? AND remittance_job = ? AND remittance_row = ?)`,
		orderID, models.ProviderOffline, jobID, n).Scan(&mine).Error
	return mine, err
}
