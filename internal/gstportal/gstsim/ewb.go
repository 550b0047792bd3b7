package gstsim

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/gstportal"
)

// The e-way bill system's own API (gstportal/ewb.go), at
// gstportal.PathEwbBase: ACCESSTOKEN with the credentials encrypted under
// the key of GET /sim/ewb-key, then GENEWAYBILL with its payload under the
// session key, checked by NIC's e-way bill rules and refused with NIC's
// error codes (gstportal.EwbErrors).

// ewbSession is an e-way bill system token: the GSTIN it was given for
// and its session key.
type ewbSession struct {
	gstin string
	sek   []byte
}

// ewbRefuse writes a refusal: status 0 with error, base64 of {errorCodes:
// "c1,c2,"}, as the system answers.
func ewbRefuse(w http.ResponseWriter, codes ...string) {
	e, _ := json.Marshal(map[string]string{"errorCodes": strings.Join(codes, ",") + ","})
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"status": "0", "error": base64.StdEncoding.EncodeToString(e)})
}

// ewbAuth is the auth API (action ACCESSTOKEN).
func (s *Server) ewbAuth(w http.ResponseWriter, r *http.Request) {
	c := s.creds
	if !match(c.ClientID, r.Header.Get("client-id")) || !match(c.ClientSecret, r.Header.Get("client-secret")) {
		ewbRefuse(w, "110")
		return
	}
	var in struct{ Data string }
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil || in.Data == "" {
		ewbRefuse(w, "100")
		return
	}
	plain, err := gstportal.DecryptAuth(s.ewbKey, in.Data)
	var creds struct {
		Action   string `json:"action"`
		Username string `json:"username"`
		Password string `json:"password"`
		AppKey   string `json:"app_key"`
	}
	if err == nil {
		err = json.Unmarshal(plain, &creds)
	}
	var appKey []byte
	if err == nil {
		appKey, err = base64.StdEncoding.DecodeString(creds.AppKey)
	}
	if err != nil || len(appKey) != 32 {
		ewbRefuse(w, "109")
		return
	}
	if creds.Action != gstportal.ActionAccessToken {
		ewbRefuse(w, "239")
		return
	}
	if !match(c.User, creds.Username) || !match(c.Password, creds.Password) {
		ewbRefuse(w, "108")
		return
	}
	sess := &ewbSession{gstin: r.Header.Get("Gstin")}
	if sess.sek, err = gstportal.NewAppKey(); err != nil {
		http.Error(w, "no session key", http.StatusInternalServerError)
		return
	}
	sek, err := gstportal.EncryptECB(appKey, sess.sek)
	if err != nil {
		http.Error(w, "encryption failed", http.StatusInternalServerError)
		return
	}
	b := make([]byte, 16)
	rand.Read(b)
	tok := hex.EncodeToString(b)
	s.mu.Lock()
	s.ewbSessions[tok] = sess
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"status": "1", "authtoken": tok, "sek": sek})
}

// ewbAPI is the e-way bill API (POST .../ewayapi {action, data}); it
// speaks GENEWAYBILL.
func (s *Server) ewbAPI(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	sess := s.ewbSessions[r.Header.Get("authtoken")]
	s.mu.Unlock()
	if sess == nil || sess.gstin != r.Header.Get("Gstin") {
		ewbRefuse(w, gstportal.EwbInvalidToken)
		return
	}
	var in struct {
		Action string `json:"action"`
		Data   string `json:"data"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<20)).Decode(&in); err != nil || in.Data == "" {
		ewbRefuse(w, "100")
		return
	}
	if in.Action != gstportal.ActionGenEwayBill {
		ewbRefuse(w, "239")
		return
	}
	plain, err := gstportal.DecryptECB(sess.sek, in.Data)
	if err != nil {
		ewbRefuse(w, "109")
		return
	}
	// NIC writes the payload as Encrypt(Base64(JSON)); clients send the
	// JSON itself under the key too. Both are taken.
	if !json.Valid(plain) {
		if dec, err := base64.StdEncoding.DecodeString(string(plain)); err == nil && json.Valid(dec) {
			plain = dec
		}
	}
	var req gstportal.EwbRequest
	if err := json.Unmarshal(plain, &req); err != nil {
		ewbRefuse(w, "100")
		return
	}
	if codes := s.ewbRules(&req, r.Header.Get("Gstin")); len(codes) > 0 {
		ewbRefuse(w, codes...)
		return
	}
	s.mu.Lock()
	key := "doc|" + req.FromGstin + "|" + req.DocType + "|" + strings.ToUpper(req.DocNo)
	if _, dup := s.ewbs[key]; dup {
		s.mu.Unlock()
		ewbRefuse(w, "604")
		return
	}
	pinKm := PinDistance(req.FromPincode, req.ToPincode)
	km, alert := req.TransDistance, ""
	switch {
	case km == 0 && pinKm == 0:
		s.mu.Unlock()
		ewbRefuse(w, "721")
		return
	case km == 0:
		km, alert = pinKm, fmt.Sprintf(", Distance between these two pincodes is %d, ", pinKm)
	case pinKm > 0 && float64(km) > math.Floor(float64(pinKm)*1.1):
		// The distance given may exceed the system's pin-to-pin distance
		// by 10 % at most.
		s.mu.Unlock()
		ewbRefuse(w, "702")
		return
	}
	s.ewbSeq++
	now := s.now()
	b := gstportal.EwayBill{Number: s.ewbSeq, Date: now.In(gstportal.IST), ValidUntil: Validity(now, km), DistanceKm: km}
	s.ewbs[key] = b
	s.mu.Unlock()
	raw, _ := json.Marshal(gstportal.EwbAnswer{EwayBillNo: b.Number, EwayBillDate: b.Date.Format(gstportal.EwbLayout),
		ValidUpto: b.ValidUntil.In(gstportal.IST).Format(gstportal.EwbLayout), Alert: alert})
	data, err := gstportal.EncryptECB(sess.sek, raw)
	if err != nil {
		http.Error(w, "encryption failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"status": "1", "data": data})
}

var (
	ewbDocNo   = regexp.MustCompile(`^[A-Za-z0-9/-]{1,16}$`)
	ewbHSN     = regexp.MustCompile(`^[0-9]{4,8}$`)
	ewbVehicle = regexp.MustCompile(`^[A-Z]{2}[0-9]{1,2}[A-Z]{0,3}[0-9]{4}$`)
	ewbDocs    = []string{"INV", "BIL", "BOE", "CHL", "CNT", "OTH"}
)

func validGSTIN(g string) bool { return len(g) == 15 && gstin.CheckChar(g[:14]) == g[14] }

// validState is a state code of the e-way bill system's list: 1 to 38, 97
// (other territory), 99 (other country).
func validState(c int) bool { return c >= 1 && c <= 38 || c == 97 || c == 99 }

// ewbRules are the e-way bill system's checks of a GENEWAYBILL payload
// from caller (the Gstin header), as NIC's error list names them: the
// document, the parties (GSTINs, pincodes, state codes), the items and
// their tax rates, the values, the transport (mode, vehicle, transporter,
// distance). A document the IRP registered must take its e-way bill from
// its IRN (720). It answers every code that applies, as the system does.
func (s *Server) ewbRules(in *gstportal.EwbRequest, caller string) []string {
	var codes []string
	add := func(c string) {
		if !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	if in.SupplyType != "O" && in.SupplyType != "I" {
		add("201")
	}
	if in.SubSupplyType < 1 || in.SubSupplyType > 12 {
		add("202")
	}
	switch {
	case !slices.Contains(ewbDocs, in.DocType):
		add("204")
	case in.SubSupplyType == 1 && in.DocType != "INV" && in.DocType != "BIL",
		in.SubSupplyType == 5 && in.DocType != "CHL":
		add("205")
	}
	if !ewbDocNo.MatchString(in.DocNo) {
		add("206")
	}
	if d, err := time.ParseInLocation(gstportal.DateLayout, in.DocDate, gstportal.IST); err != nil || d.After(s.now()) {
		add("207")
	} else if s.now().Sub(d) > 180*24*time.Hour {
		add("820")
	}
	if !validGSTIN(in.FromGstin) {
		add("208")
	} else if in.SupplyType == "O" && caller != in.FromGstin {
		add("359")
	}
	if in.ToGstin != "URP" && !validGSTIN(in.ToGstin) {
		add("212")
	}
	if in.FromPincode < 100000 || in.FromPincode > 999999 {
		add("210")
	}
	if in.ToPincode < 100000 || in.ToPincode > 999999 {
		add("214")
	}
	if !validState(in.FromStateCode) || !validState(in.ActFromStateCode) ||
		validGSTIN(in.FromGstin) && fmt.Sprintf("%02d", in.FromStateCode) != in.FromGstin[:2] {
		add("211")
	}
	if !validState(in.ToStateCode) || !validState(in.ActToStateCode) {
		add("215")
	}
	inter := in.FromStateCode != in.ToStateCode
	if len(in.ItemList) == 0 {
		add("233")
	}
	var taxable float64
	goods := false
	for _, it := range in.ItemList {
		taxable += it.TaxableAmount
		if !ewbHSN.MatchString(it.HsnCode) {
			add("216")
		} else if !strings.HasPrefix(it.HsnCode, "99") {
			goods = true
		}
		if inter && (it.CgstRate != 0 || it.SgstRate != 0) {
			add("219")
		}
		if !inter && (it.IgstRate != 0 || it.CgstRate != it.SgstRate) {
			add("218")
		}
	}
	if len(in.ItemList) > 0 && !goods {
		add("216")
	}
	if inter && (in.CgstValue != 0 || in.SgstValue != 0) {
		add("624")
	}
	if !inter && in.IgstValue != 0 {
		add("623")
	}
	if in.TotalValue <= 0 || in.TotInvValue <= 0 {
		add("234")
	} else if in.TotInvValue+1 < in.TotalValue+in.CgstValue+in.SgstValue+in.IgstValue+in.CessValue {
		add("620")
	}
	if in.TransMode < 0 || in.TransMode > 4 {
		add("220")
	}
	switch {
	case in.VehicleNo == "" && in.TransporterID == "":
		add("226")
	case in.VehicleNo != "" && !ewbVehicle.MatchString(in.VehicleNo):
		add("225")
	case in.VehicleNo != "" && in.TransMode == 0:
		add("621")
	}
	if in.VehicleType != "" && in.VehicleType != "R" && in.VehicleType != "O" {
		add("361")
	}
	if in.TransporterID != "" && !validGSTIN(in.TransporterID) {
		add("222")
	}
	if in.TransDistance < 0 || in.TransDistance > 4000 {
		add("221")
	}
	if len(codes) == 0 && in.DocType == "INV" {
		s.mu.Lock()
		_, irn := s.byDoc[docKey(in.FromGstin, "INV", in.DocNo)]
		s.mu.Unlock()
		if irn {
			add("720")
		}
	}
	return codes
}
