package orderapi

import (
	"github.com/gocommerce/shop/api/fulfillmentapi"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// list answers GET /admin/orders: page, limit, cursor, status,
// paymentMethod, paymentStatus, customerId, orderNumber, search (part of
// the order number, the customer's name or email, or their phone), ids (at most maxListIDs), dateFrom, dateTo (YYYY-MM-DD, the store's days (STORE_TIMEZONE),
// inclusive). A cursor
// (pagination.nextCursor of the previous page) replaces page; both at once
// are VALIDATION_ERROR.
func (h *handlers) list(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	window := order.Page{Window: page.Window()}
	if s := c.Query("cursor"); s != "" {
		if c.Query("page") != "" {
			return apperr.Invalid("cursor", "cannot be combined with page")
		}
		cur, err := parseCursor(s)
		if err != nil {
			return err
		}
		window.Offset, window.After, page.Page = 0, &cur.after, cur.page
	}
	var f order.Filter
	if f.Status, err = httpx.QueryEnum(c, "status", models.OrderStatuses...); err != nil {
		return err
	}
	if f.PaymentMethod, err = httpx.QueryEnum(c, "paymentMethod", models.PaymentMethods...); err != nil {
		return err
	}
	if f.PaymentStatus, err = httpx.QueryEnum(c, "paymentStatus", models.PaymentStatuses...); err != nil {
		return err
	}
	if f.CustomerID, err = httpx.QueryUUID(c, "customerId"); err != nil {
		return err
	}
	if f.OrderNumber, err = httpx.QuerySearch(c, "orderNumber"); err != nil {
		return err
	}
	if f.Search, err = httpx.QuerySearch(c, "search"); err != nil {
		return err
	}
	if f.IDs, err = httpx.QueryIDs(c, "ids", maxListIDs); err != nil {
		return err
	}
	if f.From, err = httpx.QueryDate(c, "dateFrom"); err != nil {
		return err
	}
	if f.To, err = httpx.QueryDate(c, "dateTo"); err != nil {
		return err
	}
	res, err := h.orders.List(c.UserContext(), f, window)
	if err != nil {
		return err
	}
	views := make([]summaryView, len(res.Rows))
	for i, r := range res.Rows {
		views[i] = newSummaryView(r)
	}
	body := httpx.NewList(views, page, res.Total)
	out := listBody{Data: body.Data, Pagination: listPagination{Pagination: body.Pagination}}
	if res.Next != nil {
		next := listCursor{after: *res.Next, page: page.Page + 1}.String()
		out.Pagination.NextCursor = &next
	}
	return c.JSON(out)
}

// maxListIDs bounds ?ids=: a page's worth of orders to name.
const maxListIDs = 100

// listBody is the order list: the common list body (httpx.NewList) whose
// pagination also carries the cursor of the next page.
type listBody struct {
	Data       []summaryView  `json:"data"`
	Pagination listPagination `json:"pagination"`
}

type listPagination struct {
	httpx.Pagination
	// NextCursor walks on to the next page; null on the last page.
	NextCursor *string `json:"nextCursor"`
}

// get answers GET /admin/orders/{orderId}.
func (h *handlers) get(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	return h.detail(c, id)
}

// detail answers with order id's detail, its fulfilments and its tax
// documents.
func (h *handlers) detail(c *fiber.Ctx, id uuid.UUID) error {
	d, err := h.orders.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	v, err := h.detailOf(c, d)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// detailOf is the answer of order d with its shipments and tax documents.
func (h *handlers) detailOf(c *fiber.Ctx, d *order.Detail) (detailView, error) {
	fs, err := h.shipments.ForOrder(c.UserContext(), d.ID)
	if err != nil {
		return detailView{}, err
	}
	docs, err := h.taxDocumentsOf(c, d.ID)
	if err != nil {
		return detailView{}, err
	}
	v := newDetailView(d, fs)
	if v.TaxSplit, err = h.invoices.TaxSplit(c.UserContext(), &d.Order); err != nil {
		return detailView{}, err
	}
	if err := fulfillmentapi.WithEwayBills(c.UserContext(), h.ewayBills, v.Fulfillments); err != nil {
		return detailView{}, err
	}
	v.TaxDocuments = docs
	return v, nil
}
