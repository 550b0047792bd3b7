package locationapi

import (
	"context"
	"strings"
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/fulfillmentapi"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/einvoice"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type transferItemBody struct {
	VariantID string `json:"variantId" validate:"required,uuid"`
	Quantity  int    `json:"quantity" validate:"min=1,max=1000000000"`
	// Value is the units' value each, without GST, for the transfer's tax
	// invoice (else the variant's price without GST).
	Value *money.Amount `json:"value" validate:"omitempty,gt=0,lte=10000000"`
}

type transferRequest struct {
	FromLocationID string             `json:"fromLocationId" validate:"required,uuid"`
	ToLocationID   string             `json:"toLocationId" validate:"required,uuid"`
	Items          []transferItemBody `json:"items" validate:"required,min=1,max=500,dive"`
	Note           string             `json:"note" validate:"max=500"`
	// VehicleNumber or TransporterID, and DistanceKm, carry the goods of
	// an invoiced transfer that needs an e-way bill (as a fulfilment's).
	VehicleNumber string `json:"vehicleNumber" validate:"omitempty,min=4,max=20,alphanum"`
	TransporterID string `json:"transporterId" validate:"omitempty,len=15,alphanum"`
	DistanceKm    int    `json:"distanceKm" validate:"omitempty,min=1,max=4000"`
}

type transferItemView struct {
	VariantID uuid.UUID `json:"variantId"`
	Quantity  int       `json:"quantity"`
	// Received is how many of the units reached the destination; the rest
	// are in transit (or went back, once cancelled).
	Received int           `json:"received"`
	Value    *money.Amount `json:"value"`
}

type transferView struct {
	ID             uuid.UUID          `json:"id"`
	FromLocationID *uuid.UUID         `json:"fromLocationId"`
	ToLocationID   *uuid.UUID         `json:"toLocationId"`
	Status         string             `json:"status"`
	Note           string             `json:"note"`
	Items          []transferItemView `json:"items"`
	CreatedAt      time.Time          `json:"createdAt"`
	ReceivedAt     *time.Time         `json:"receivedAt"`
	CancelledAt    *time.Time         `json:"cancelledAt"`
	// Document is its tax invoice (between GSTINs) or delivery challan
	// (under one), null without a tax identity; CreditNote reduces the
	// invoice of a transfer cancelled in transit.
	Document   *invoice.DocumentRef `json:"document"`
	CreditNote *invoice.DocumentRef `json:"creditNote"`
	// VehicleNumber, TransporterID and DistanceKm are how the goods
	// travel; EwayBill is the invoice's e-way bill, null when none is
	// needed.
	VehicleNumber *string            `json:"vehicleNumber"`
	TransporterID *string            `json:"transporterId"`
	DistanceKm    *int               `json:"distanceKm"`
	EwayBill      *einvoice.EwayBill `json:"ewayBill"`
}

func newTransferView(t *stock.Transfer) transferView {
	v := transferView{ID: t.ID, FromLocationID: t.FromLocationID, ToLocationID: t.ToLocationID, Status: t.Status, Note: t.Note,
		Items: make([]transferItemView, len(t.Items)), CreatedAt: t.CreatedAt.UTC(), ReceivedAt: utc(t.ReceivedAt),
		CancelledAt: utc(t.CancelledAt), VehicleNumber: t.VehicleNumber, TransporterID: t.TransporterID, DistanceKm: t.DistanceKm,
		EwayBill: t.EwayBill}
	for i, it := range t.Items {
		v.Items[i] = transferItemView{VariantID: it.VariantID, Quantity: it.Quantity, Received: t.Received[it.VariantID]}
		if val, ok := t.Values[it.VariantID]; ok {
			v.Items[i].Value = &val
		}
	}
	for i := range t.Documents {
		d := &t.Documents[i]
		if d.Type == models.DocCreditNote {
			v.CreditNote = d
		} else {
			v.Document = d
		}
	}
	return v
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// createTransfer: POST /inventory/transfers → 201 the transfer, in transit.
// Errors: VALIDATION_ERROR, CONFLICT (the source lacks the units or needs
// them for orders: stock.Levels.CreateTransfer).
func (h *handlers) createTransfer(c *fiber.Ctx) error {
	var req transferRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	in := stock.TransferInput{From: uuid.MustParse(req.FromLocationID), To: uuid.MustParse(req.ToLocationID), Note: req.Note,
		AdminID: adminroute.ActorOf(c).AdminID, VehicleNumber: strings.ToUpper(req.VehicleNumber),
		TransporterID: strings.ToUpper(req.TransporterID), DistanceKm: req.DistanceKm}
	for _, it := range req.Items {
		vid := uuid.MustParse(it.VariantID)
		in.Items = append(in.Items, stock.Item{VariantID: vid, Quantity: it.Quantity})
		if it.Value != nil {
			if in.Values == nil {
				in.Values = map[uuid.UUID]money.Amount{}
			}
			in.Values[vid] = *it.Value
		}
	}
	t, err := h.stock.CreateTransfer(c.UserContext(), in)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, t.ID.String())
	return c.Status(fiber.StatusCreated).JSON(newTransferView(t))
}

// listTransfers: GET /inventory/transfers?status= → {data, pagination},
// newest first. Errors: VALIDATION_ERROR (page, limit, status).
func (h *handlers) listTransfers(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	status, err := httpx.QueryEnum(c, "status", stock.TransferInTransit, stock.TransferPartiallyReceived, stock.TransferReceived,
		stock.TransferCancelled)
	if err != nil {
		return err
	}
	ts, total, err := h.stock.Transfers(c.UserContext(), status, page.Window())
	if err != nil {
		return err
	}
	data := make([]transferView, len(ts))
	for i := range ts {
		data[i] = newTransferView(&ts[i])
	}
	return c.JSON(httpx.NewList(data, page, total))
}

// getTransfer: GET /inventory/transfers/{transferId}. Errors: NOT_FOUND.
func (h *handlers) getTransfer(c *fiber.Ctx) error {
	return h.onTransfer(c, h.stock.Transfer)
}

// receiveRequest is the optional body of a receipt: the units that
// arrived, by variant; none, every unit still in transit.
type receiveRequest struct {
	Items []receiveItemBody `json:"items" validate:"max=500,dive"`
}

type receiveItemBody struct {
	VariantID string `json:"variantId" validate:"required,uuid"`
	Quantity  int    `json:"quantity"`
}

// receiveTransfer: POST .../{transferId}/receive {items?} → the transfer,
// received, or partially_received while units remain in transit.
// Errors: NOT_FOUND, CONFLICT (received or cancelled), VALIDATION_ERROR
// (items[i].variantId, items[i].quantity: stock.Levels.ReceiveTransfer).
func (h *handlers) receiveTransfer(c *fiber.Ctx) error {
	var req receiveRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	var items []stock.Item
	for _, it := range req.Items {
		items = append(items, stock.Item{VariantID: uuid.MustParse(it.VariantID), Quantity: it.Quantity})
	}
	if req.Items != nil && len(items) == 0 {
		return apperr.Invalid("items", "must hold at least one item when given")
	}
	return h.onTransfer(c, func(ctx context.Context, id uuid.UUID) (*stock.Transfer, error) {
		return h.stock.ReceiveTransfer(ctx, id, items)
	})
}

// cancelTransfer: POST .../{transferId}/cancel → the transfer, cancelled,
// its units back at the source. Errors: NOT_FOUND, CONFLICT (not in transit).
func (h *handlers) cancelTransfer(c *fiber.Ctx) error {
	return h.onTransfer(c, h.stock.CancelTransfer)
}

// transferDocument: GET .../{transferId}/document → application/pdf, the
// transfer's tax invoice or delivery challan. Errors: NOT_FOUND (no such
// transfer, or it has no document).
func (h *handlers) transferDocument(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "transferId", "transfer")
	if err != nil {
		return err
	}
	name, pdf, err := h.stock.TransferDocumentPDF(c.UserContext(), id)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="`+name+`"`)
	return c.Send(pdf)
}

// retryTransferEwayBill: POST .../{transferId}/eway-bill/retry → 202 the
// transfer, its failed e-way bill pending again with the carriage given.
// Errors: NOT_FOUND (no transfer, or no e-way bill), CONFLICT (not
// failed), VALIDATION_ERROR.
func (h *handlers) retryTransferEwayBill(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "transferId", "transfer")
	if err != nil {
		return err
	}
	var req fulfillmentapi.CarriageRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.bills.RetryTransferEwayBill(c.UserContext(), id, req.Carriage()); err != nil {
		return err
	}
	t, err := h.stock.Transfer(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(newTransferView(t))
}

// onTransfer answers a route of one transfer with it after do.
func (h *handlers) onTransfer(c *fiber.Ctx, do func(ctx context.Context, id uuid.UUID) (*stock.Transfer, error)) error {
	id, err := httpx.PathUUID(c, "transferId", "transfer")
	if err != nil {
		return err
	}
	t, err := do(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newTransferView(t))
}
