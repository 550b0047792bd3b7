package invoice

import (
	"fmt"

	"github.com/signintech/gopdf"
	"github.com/skip2/go-qrcode"
)

// qrSide is the printed side of the e-invoice QR code, in points: the
// signed QR code is about a kilobyte, a version 30-odd symbol whose
// modules stay above half a millimetre at this size.
const qrSide = 150.0

// eInvoice prints a registered document's IRN, acknowledgement number and
// date and the QR code of the IRP's SignedQRCode (Rule 48(4): the invoice
// carries the IRN and the QR code), in a band below the heading. Nothing
// for a document that was not registered.
func (p *pdfWriter) eInvoice(d *Document) {
	e := d.EInvoice
	if p.err != nil || e == nil || e.Status != EInvoiceGenerated || e.IRN == nil || e.SignedQRCode == nil {
		return
	}
	png, err := qrcode.Encode(*e.SignedQRCode, qrcode.Low, 1024)
	if err != nil {
		p.err = fmt.Errorf("e-invoice QR code: %w", err)
		return
	}
	holder, err := gopdf.ImageHolderByBytes(png)
	if err == nil {
		err = p.ImageByHolder(holder, pageW-margin-qrSide, p.y, &gopdf.Rect{W: qrSide, H: qrSide})
	}
	if err != nil {
		p.err = fmt.Errorf("e-invoice QR code: %w", err)
		return
	}
	w := pageW - 2*margin - qrSide - 10
	p.font(true, 9)
	y := p.lines(margin, p.y+4, w, 12, "e-Invoice")
	p.font(false, 8)
	y = p.lines(margin, y, w, 11, "IRN: "+*e.IRN)
	if e.AckNo != nil && e.AckDate != nil {
		y = p.lines(margin, y, w, 11, fmt.Sprintf("Ack No: %d", *e.AckNo))
		p.lines(margin, y, w, 11, "Ack Date: "+e.AckDate.In(ist).Format("02-01-2006 15:04"))
	}
	p.y += qrSide + 8
}
