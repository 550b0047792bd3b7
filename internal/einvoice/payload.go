package einvoice

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/models"
)

// DocType is the IRP's type of a document: INV for an invoice, CRN for a
// credit note.
func DocType(d *invoice.Document) string {
	if d.Type == models.DocInvoice {
		return "INV"
	}
	return "CRN"
}

// DocDate is a document's date as the IRP takes it: dd/mm/yyyy in IST.
func DocDate(d *invoice.Document) string {
	return d.IssuedAt.In(gstportal.IST).Format(gstportal.DateLayout)
}

// Payload is document d as the IRP takes it (INV-01, schema 1.1): its
// lines as items at their taxable values, the totals, the buyer with the
// place of supply, the delivery address when d records one, and for a
// credit note the invoices it reduces. hsn replaces the HSN of lines by
// number (a correction staff made after the IRP refused the code).
func Payload(d *invoice.Document, hsn map[int]string) (*gstportal.Invoice, error) {
	if d.Recipient.GSTIN == nil {
		return nil, fmt.Errorf("einvoice: document %s has no buyer GSTIN", d.Number)
	}
	sellerCode, _ := region.GSTCode(d.Supplier.Address.State)
	buyerCode, _ := region.GSTCode(d.Recipient.Address.State)
	inv := &gstportal.Invoice{
		Version:  "1.1",
		TranDtls: gstportal.TranDtls{TaxSch: "GST", SupTyp: "B2B", RegRev: "N"},
		DocDtls:  gstportal.DocDtls{Typ: DocType(d), No: d.Number, Dt: DocDate(d)},
		SellerDtls: gstportal.Party{Gstin: d.Supplier.GSTIN, LglNm: d.Supplier.LegalName, TrdNm: d.Supplier.TradeName,
			Addr1: d.Supplier.Address.Line1, Addr2: d.Supplier.Address.Line2, Loc: d.Supplier.Address.City,
			Pin: pin(d.Supplier.Address.Pincode), Stcd: sellerCode},
		BuyerDtls: gstportal.Party{Gstin: *d.Recipient.GSTIN, LglNm: d.Recipient.Name, Pos: d.PlaceOfSupply.Code,
			Addr1: d.Recipient.Address.Line1, Addr2: d.Recipient.Address.Line2, Loc: d.Recipient.Address.City,
			Pin: pin(d.Recipient.Address.Pincode), Stcd: buyerCode},
		ValDtls: gstportal.ValDtls{AssVal: rupees(d.TaxableValue), CgstVal: rupees(d.CGSTTotal), SgstVal: rupees(d.SGSTTotal),
			IgstVal: rupees(d.IGSTTotal), CesVal: rupees(d.CessTotal), TotInvVal: rupees(d.Total)},
	}
	if a := d.DeliveryAddress; a != nil {
		inv.ShipDtls = &gstportal.ShipDtls{LglNm: a.Name, Addr1: a.Line1, Addr2: a.Line2, Loc: a.City, Pin: pin(a.Pincode),
			Stcd: a.StateCode}
	}
	for i, l := range d.Lines {
		code := l.HSN
		if c, ok := hsn[i+1]; ok {
			code = c
		}
		it := gstportal.Item{SlNo: strconv.Itoa(i + 1), PrdDesc: l.Description, IsServc: "N", HsnCd: code,
			Qty: float64(l.Quantity), Unit: l.Unit, TotAmt: rupees(l.TaxableValue), AssAmt: rupees(l.TaxableValue),
			GstRt: float64(l.GSTRate) / 100, IgstAmt: rupees(l.IGST), CgstAmt: rupees(l.CGST), SgstAmt: rupees(l.SGST),
			CesRt: float64(l.CessRate) / 100, CesAmt: rupees(l.Cess), TotItemVal: rupees(l.Total)}
		if strings.HasPrefix(code, "99") {
			it.IsServc = "Y"
		}
		if it.Unit == "NA" || it.IsServc == "Y" {
			it.Unit = "" // a service has no quantity code
		}
		if l.Quantity > 0 {
			it.UnitPrice = math.Round(float64(l.TaxableValue)/float64(l.Quantity)*10) / 1000
		}
		inv.ItemList = append(inv.ItemList, it)
	}
	if len(d.References) > 0 {
		inv.RefDtls = &gstportal.RefDtls{}
		for _, r := range d.References {
			inv.RefDtls.PrecDocDtls = append(inv.RefDtls.PrecDocDtls, gstportal.PrecDoc{InvNo: r.Number,
				InvDt: r.IssuedAt.In(gstportal.IST).Format(gstportal.DateLayout)})
		}
	}
	return inv, nil
}

func rupees(a money.Amount) float64 { return float64(a) / 100 }

func pin(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
