package gstsim

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/gocommerce/shop/internal/gstportal"
)

// Validity is how long an e-way bill for distance km is valid from at
// (Rule 138(10)): a day for up to 200 km and one more for every further
// 200 km or part of it, a day ending at midnight: the bill is valid to
// 23:59 of the last day, in IST.
func Validity(at time.Time, km int) time.Time {
	days := max(1, (km+199)/200)
	d := at.In(gstportal.IST)
	return time.Date(d.Year(), d.Month(), d.Day()+days, 23, 59, 0, 0, gstportal.IST)
}

// centroids place the first two digits of a pincode (a postal region)
// at one of its main towns, for the simulator's pin-to-pin distance.
var centroids = map[int][2]float64{
	11: {28.61, 77.21}, 12: {28.46, 77.03}, 13: {30.73, 76.78}, 14: {30.90, 75.85}, 15: {30.21, 74.95},
	16: {30.73, 76.78}, 17: {31.10, 77.17}, 18: {32.73, 74.86}, 19: {34.08, 74.80}, 20: {28.98, 77.71},
	21: {25.44, 81.85}, 22: {26.85, 80.95}, 23: {26.45, 80.33}, 24: {28.37, 79.43}, 25: {25.32, 82.97},
	26: {26.76, 83.37}, 27: {26.55, 83.97}, 28: {27.18, 78.01}, 30: {26.91, 75.79}, 31: {26.45, 74.64},
	32: {25.18, 75.83}, 33: {28.02, 73.31}, 34: {26.24, 73.02}, 36: {22.30, 70.80}, 37: {23.24, 69.67},
	38: {23.02, 72.57}, 39: {21.17, 72.83}, 40: {19.08, 72.88}, 41: {18.52, 73.86}, 42: {19.99, 73.79},
	43: {19.88, 75.34}, 44: {21.15, 79.09}, 45: {22.72, 75.86}, 46: {23.26, 77.41}, 47: {26.22, 78.18},
	48: {23.18, 79.99}, 49: {21.25, 81.63}, 50: {17.39, 78.49}, 51: {15.83, 78.04}, 52: {16.51, 80.65},
	53: {17.69, 83.22}, 56: {12.97, 77.59}, 57: {12.87, 74.84}, 58: {15.36, 75.12}, 59: {15.85, 74.50},
	60: {13.08, 80.27}, 61: {11.94, 79.81}, 62: {9.93, 78.12}, 63: {11.66, 78.15}, 64: {11.02, 76.96},
	67: {11.26, 75.78}, 68: {9.93, 76.27}, 69: {8.52, 76.94}, 70: {22.57, 88.36}, 71: {22.59, 88.26},
	72: {22.42, 87.32}, 73: {26.73, 88.40}, 74: {23.24, 87.86}, 75: {20.46, 85.88}, 76: {19.31, 84.79},
	77: {21.47, 83.97}, 78: {26.14, 91.74}, 79: {25.58, 91.89}, 80: {25.59, 85.14}, 81: {25.24, 86.97},
	82: {24.80, 85.00}, 83: {23.34, 85.31}, 84: {26.12, 85.39}, 85: {25.78, 87.47},
}

// PinDistance is the simulator's road distance between two pincodes: the
// great-circle distance of their regions' towns and a quarter more for the
// roads, and 10 km more within a town; 0 when a region is unknown.
func PinDistance(from, to int) int {
	a, ok1 := centroids[from/10000]
	b, ok2 := centroids[to/10000]
	if !ok1 || !ok2 {
		return 0
	}
	rad := func(d float64) float64 { return d * math.Pi / 180 }
	dlat, dlon := rad(b[0]-a[0]), rad(b[1]-a[1])
	h := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(rad(a[0]))*math.Cos(rad(b[0]))*math.Sin(dlon/2)*math.Sin(dlon/2)
	km := 2 * 6371 * math.Asin(math.Sqrt(h)) * 1.25
	return int(math.Round(km)) + 10
}

// issue makes an e-way bill of distance km (0: from the pincodes). The
// caller holds s.mu.
func (s *Server) issue(key string, km, fromPin, toPin int) (gstportal.EwayBill, int, error) {
	if b, ok := s.ewbs[key]; ok {
		return b, 0, fmt.Errorf("604")
	}
	calc := 0
	if km == 0 {
		km = PinDistance(fromPin, toPin)
		calc = km
		if km == 0 {
			return gstportal.EwayBill{}, 0, fmt.Errorf("721")
		}
	}
	if km > 4000 {
		return gstportal.EwayBill{}, 0, fmt.Errorf("702")
	}
	s.ewbSeq++
	now := s.now()
	b := gstportal.EwayBill{Number: s.ewbSeq, Date: now.In(gstportal.IST), ValidUntil: Validity(now, km), DistanceKm: km}
	s.ewbs[key] = b
	return b, calc, nil
}

var ewbMessages = map[string]string{
	"604": "E-way bill(s) are already generated for the same document number, you cannot generate again on same document number",
	// The e-way bill system's codes, which the IRP passes on (gstportal.EwbErrors).
	"702":  "The distance between the pincodes given is too high",
	"721":  "The distance between the given pincodes are not available in the system. Please provide distance.",
	"4003": "Either the transporter id or the vehicle number is required",
	"4002": "The IRN is not active or not found",
}

// ewbByIRN is Generate e-way bill by IRN.
func (s *Server) ewbByIRN(w http.ResponseWriter, r *http.Request) {
	var in gstportal.EwbByIRN
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil {
		refuse(w, gstportal.CodeSchema, "JSON validation failed", nil)
		return
	}
	if in.VehNo == "" && in.TransId == "" {
		refuse(w, "4003", ewbMessages["4003"], nil)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.byIRN[in.Irn]
	if rec == nil {
		refuse(w, "4002", ewbMessages["4002"], nil)
		return
	}
	fromPin, toPin := pinOf(rec.inv, "SellerDtls"), pinOf(rec.inv, "ShipDtls")
	if toPin == 0 {
		toPin = pinOf(rec.inv, "BuyerDtls")
	}
	b, calc, err := s.issue("irn|"+in.Irn, in.Distance, fromPin, toPin)
	if err != nil {
		refuse(w, err.Error(), ewbMessages[err.Error()], nil)
		return
	}
	var info []gstportal.Info
	if calc > 0 {
		desc, _ := json.Marshal(fmt.Sprintf("Pin-Pin calc distance: %dKM", calc))
		info = []gstportal.Info{{InfCd: "EWBPPD", Desc: desc}}
	}
	answer(w, r, map[string]any{"EwbNo": b.Number, "EwbDt": b.Date.Format(gstportal.AckLayout),
		"EwbValidTill": b.ValidUntil.In(gstportal.IST).Format(gstportal.AckLayout)}, info)
}

func pinOf(inv map[string]any, party string) int {
	p, _ := inv[party].(map[string]any)
	f, _ := p["Pin"].(float64)
	return int(f)
}
