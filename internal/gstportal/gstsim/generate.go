package gstsim

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"

	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/golang-jwt/jwt/v5"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schema is the e-invoice JSON schema 1.1 the simulator checks every
// payload against.
//
//go:embed schema/einvoice-1.1.json
var Schema embed.FS

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// compiled is the schema, compiled once.
func compiled() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		raw, err := Schema.ReadFile("schema/einvoice-1.1.json")
		if err != nil {
			schemaErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		if schemaErr = c.AddResource("einvoice-1.1.json", doc); schemaErr != nil {
			return
		}
		schema, schemaErr = c.Compile("einvoice-1.1.json")
	})
	return schema, schemaErr
}

// Validate checks raw against the e-invoice schema 1.1; the error lists
// what it refuses.
func Validate(raw []byte) error {
	sch, err := compiled()
	if err != nil {
		return fmt.Errorf("gstsim: schema: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		return schemaError(err)
	}
	return nil
}

// schemaError flattens a validation error into the leaves' messages, as
// the IRP lists them.
func schemaError(err error) error {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err
	}
	printer := message.NewPrinter(language.English)
	var msgs []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			msgs = append(msgs, "/"+strings.Join(e.InstanceLocation, "/")+": "+e.ErrorKind.LocalizedString(printer))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return fmt.Errorf("%s", strings.Join(msgs, "; "))
}

// generate is Generate IRN.
func (s *Server) generate(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 2<<20))
	if err != nil {
		refuse(w, gstportal.CodeSchema, "JSON too large or unreadable", nil)
		return
	}
	if err := Validate(raw); err != nil {
		refuse(w, gstportal.CodeSchema, "JSON validation failed: "+err.Error(), nil)
		return
	}
	var inv gstportal.Invoice
	if err := json.Unmarshal(raw, &inv); err != nil {
		refuse(w, gstportal.CodeSchema, "JSON validation failed: "+err.Error(), nil)
		return
	}
	if code, msg := businessRules(&inv, r.Header.Get("Gstin")); code != "" {
		refuse(w, code, msg, nil)
		return
	}
	if s.large(inv.SellerDtls.Gstin) && gstportal.ReportingWindowClosed(inv.DocDtls.Dt, s.now()) {
		refuse(w, gstportal.CodeReportingWindow, fmt.Sprintf("IRN cannot be generated with document date prior to %d days "+
			"from today for suppliers with AATO of 10 crores and above", gstportal.ReportingWindowDays), nil)
		return
	}
	fy, ok := gstportal.FinancialYear(inv.DocDtls.Dt)
	if !ok {
		refuse(w, gstportal.CodeSchema, "Invalid document date", nil)
		return
	}
	irn := gstportal.ComputeIRN(inv.SellerDtls.Gstin, fy, inv.DocDtls.Typ, strings.ToUpper(inv.DocDtls.No))
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec := s.byIRN[irn]; rec != nil {
		desc, _ := json.Marshal(rec.irn.Ack)
		refuse(w, gstportal.CodeDuplicateIRN, "Duplicate IRN", []gstportal.Info{{InfCd: "DUPIRN", Desc: desc}})
		return
	}
	s.ackSeq++
	ack := gstportal.Ack{Irn: irn, AckNo: s.ackSeq, AckDt: s.now().In(gstportal.IST).Format(gstportal.AckLayout)}
	var full map[string]any
	json.Unmarshal(raw, &full)
	full["Irn"], full["AckNo"], full["AckDt"] = ack.Irn, ack.AckNo, ack.AckDt
	signedInv, err := s.sign(full)
	if err != nil {
		http.Error(w, "signing failed", http.StatusInternalServerError)
		return
	}
	mainHSN := ""
	if len(inv.ItemList) > 0 {
		mainHSN = inv.ItemList[0].HsnCd
	}
	qr := gstportal.QRData{SellerGstin: inv.SellerDtls.Gstin, BuyerGstin: inv.BuyerDtls.Gstin, DocNo: inv.DocDtls.No,
		DocTyp: inv.DocDtls.Typ, DocDt: inv.DocDtls.Dt, TotInvVal: inv.ValDtls.TotInvVal, ItemCnt: len(inv.ItemList),
		MainHsnCode: mainHSN, Irn: irn, IrnDt: ack.AckDt}
	signedQR, err := s.sign(qr)
	if err != nil {
		http.Error(w, "signing failed", http.StatusInternalServerError)
		return
	}
	rec := &record{irn: gstportal.IRN{Ack: ack, SignedInvoice: signedInv, SignedQRCode: signedQR, Status: "ACT"}, inv: full,
		date: inv.DocDtls.Dt}
	s.byIRN[irn] = rec
	s.byDoc[docKey(inv.SellerDtls.Gstin, inv.DocDtls.Typ, inv.DocDtls.No)] = rec
	s.reports++
	answer(w, r, rec.irn, nil)
}

func docKey(gstin, typ, no string) string { return gstin + "|" + typ + "|" + strings.ToUpper(no) }

// sign makes the IRP's JWT of data: {"data": <data as JSON>, "iss": "NIC"}.
func (s *Server) sign(data any) (string, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return "", err
	}
	t := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"data": string(raw), "iss": "NIC Sandbox (simulated)"})
	return t.SignedString(s.key)
}

// businessRules are the IRP's checks beyond the schema: the caller's GSTIN
// is the seller's, GSTINs carry their check character, the state codes
// agree, and the items add up to the totals (to a rupee).
func businessRules(inv *gstportal.Invoice, caller string) (string, string) {
	if caller != "" && caller != inv.SellerDtls.Gstin {
		return "2211", "The seller GSTIN does not match the GSTIN of the token"
	}
	for _, g := range []string{inv.SellerDtls.Gstin, inv.BuyerDtls.Gstin} {
		if len(g) != 15 || gstin.CheckChar(g[:14]) != g[14] {
			return gstportal.CodeInvalidGSTIN, "GSTIN - " + g + " is invalid"
		}
	}
	if inv.SellerDtls.Gstin == inv.BuyerDtls.Gstin {
		return "2227", "Seller and buyer GSTINs cannot be the same"
	}
	if inv.SellerDtls.Gstin[:2] != pad(inv.SellerDtls.Stcd) {
		return "3039", "Seller state code does not match the state of the GSTIN"
	}
	var ass, tot float64
	for _, it := range inv.ItemList {
		ass += it.AssAmt
		tot += it.TotItemVal
		inter := pad(inv.BuyerDtls.Pos) != pad(inv.SellerDtls.Stcd)
		if inter && (it.CgstAmt != 0 || it.SgstAmt != 0) || !inter && it.IgstAmt != 0 {
			return "2172", "For inter-state transaction, CGST and SGST amounts are not applicable; only IGST amount is applicable (and the reverse for intra-state)"
		}
	}
	if math.Abs(ass-inv.ValDtls.AssVal) > 1 {
		return "2189", "Total assessable value does not match the sum of the items' assessable values"
	}
	if math.Abs(tot-inv.ValDtls.TotInvVal) > 1 {
		return "2182", "Total invoice value does not match the sum of the items' values"
	}
	return "", ""
}

func pad(code string) string {
	if len(code) == 1 {
		return "0" + code
	}
	return code
}

// byDocument is Get IRN by document details.
func (s *Server) byDocument(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	rec := s.byDoc[docKey(r.Header.Get("Gstin"), q.Get("doctype"), q.Get("docnum"))]
	s.mu.Unlock()
	if rec == nil || rec.date != q.Get("docdate") {
		refuse(w, "2148", "Requested IRN data is not available", nil)
		return
	}
	answer(w, r, rec.irn, nil)
}
