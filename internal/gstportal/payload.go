package gstportal

// Invoice is the e-invoice (INV-01, schema version 1.1) as the IRP takes
// it: field names as notified. Amounts are rupees with two decimals.
type Invoice struct {
	Version    string    `json:"Version"`
	TranDtls   TranDtls  `json:"TranDtls"`
	DocDtls    DocDtls   `json:"DocDtls"`
	SellerDtls Party     `json:"SellerDtls"`
	BuyerDtls  Party     `json:"BuyerDtls"`
	ShipDtls   *ShipDtls `json:"ShipDtls,omitempty"`
	ItemList   []Item    `json:"ItemList"`
	ValDtls    ValDtls   `json:"ValDtls"`
	RefDtls    *RefDtls  `json:"RefDtls,omitempty"`
}

// TranDtls are the transaction's: tax scheme GST, supply type B2B, no
// reverse charge.
type TranDtls struct {
	TaxSch string `json:"TaxSch"`
	SupTyp string `json:"SupTyp"`
	RegRev string `json:"RegRev"`
}

// DocDtls names the document: Typ INV or CRN, its number, its date as
// dd/mm/yyyy.
type DocDtls struct {
	Typ string `json:"Typ"`
	No  string `json:"No"`
	Dt  string `json:"Dt"`
}

// Party is the seller or the buyer; Pos (place of supply, state code) is
// the buyer's only.
type Party struct {
	Gstin string `json:"Gstin"`
	LglNm string `json:"LglNm"`
	TrdNm string `json:"TrdNm,omitempty"`
	Pos   string `json:"Pos,omitempty"`
	Addr1 string `json:"Addr1"`
	Addr2 string `json:"Addr2,omitempty"`
	Loc   string `json:"Loc"`
	Pin   int    `json:"Pin"`
	Stcd  string `json:"Stcd"`
}

// ShipDtls is where the goods go when it is not the buyer's address.
type ShipDtls struct {
	LglNm string `json:"LglNm"`
	Addr1 string `json:"Addr1"`
	Addr2 string `json:"Addr2,omitempty"`
	Loc   string `json:"Loc"`
	Pin   int    `json:"Pin"`
	Stcd  string `json:"Stcd"`
}

// Item is a line.
type Item struct {
	SlNo       string  `json:"SlNo"`
	PrdDesc    string  `json:"PrdDesc"`
	IsServc    string  `json:"IsServc"`
	HsnCd      string  `json:"HsnCd"`
	Qty        float64 `json:"Qty"`
	Unit       string  `json:"Unit,omitempty"`
	UnitPrice  float64 `json:"UnitPrice"`
	TotAmt     float64 `json:"TotAmt"`
	Discount   float64 `json:"Discount"`
	AssAmt     float64 `json:"AssAmt"`
	GstRt      float64 `json:"GstRt"`
	IgstAmt    float64 `json:"IgstAmt"`
	CgstAmt    float64 `json:"CgstAmt"`
	SgstAmt    float64 `json:"SgstAmt"`
	CesRt      float64 `json:"CesRt"`
	CesAmt     float64 `json:"CesAmt"`
	TotItemVal float64 `json:"TotItemVal"`
}

// ValDtls are the document's totals.
type ValDtls struct {
	AssVal    float64 `json:"AssVal"`
	CgstVal   float64 `json:"CgstVal"`
	SgstVal   float64 `json:"SgstVal"`
	IgstVal   float64 `json:"IgstVal"`
	CesVal    float64 `json:"CesVal"`
	TotInvVal float64 `json:"TotInvVal"`
}

// RefDtls names the invoices a credit note reduces.
type RefDtls struct {
	PrecDocDtls []PrecDoc `json:"PrecDocDtls"`
}

// PrecDoc is a preceding document: number and date (dd/mm/yyyy).
type PrecDoc struct {
	InvNo string `json:"InvNo"`
	InvDt string `json:"InvDt"`
}

// EwbByIRN is the body of e-way bill generation by IRN.
type EwbByIRN struct {
	Irn       string `json:"Irn"`
	Distance  int    `json:"Distance"`
	TransMode string `json:"TransMode,omitempty"`
	TransId   string `json:"TransId,omitempty"`
	VehNo     string `json:"VehNo,omitempty"`
	VehType   string `json:"VehType,omitempty"`
}

// EwbRequest is the e-way bill system's GENEWAYBILL body (a document
// without an IRN). Amounts in rupees; state codes as numbers.
type EwbRequest struct {
	SupplyType       string    `json:"supplyType"`
	SubSupplyType    int       `json:"subSupplyType"`
	DocType          string    `json:"docType"`
	DocNo            string    `json:"docNo"`
	DocDate          string    `json:"docDate"`
	TransactionType  int       `json:"transactionType"`
	FromGstin        string    `json:"fromGstin"`
	FromTrdName      string    `json:"fromTrdName"`
	FromAddr1        string    `json:"fromAddr1"`
	FromPlace        string    `json:"fromPlace"`
	FromPincode      int       `json:"fromPincode"`
	FromStateCode    int       `json:"fromStateCode"`
	ActFromStateCode int       `json:"actFromStateCode"`
	ToGstin          string    `json:"toGstin"`
	ToTrdName        string    `json:"toTrdName"`
	ToAddr1          string    `json:"toAddr1"`
	ToPlace          string    `json:"toPlace"`
	ToPincode        int       `json:"toPincode"`
	ToStateCode      int       `json:"toStateCode"`
	ActToStateCode   int       `json:"actToStateCode"`
	TotalValue       float64   `json:"totalValue"`
	CgstValue        float64   `json:"cgstValue"`
	SgstValue        float64   `json:"sgstValue"`
	IgstValue        float64   `json:"igstValue"`
	CessValue        float64   `json:"cessValue"`
	TotInvValue      float64   `json:"totInvValue"`
	TransMode        int       `json:"transMode"`
	TransDistance    int       `json:"transDistance"`
	TransporterID    string    `json:"transporterId,omitempty"`
	VehicleNo        string    `json:"vehicleNo,omitempty"`
	VehicleType      string    `json:"vehicleType,omitempty"`
	MainHsnCode      string    `json:"mainHsnCode"`
	ItemList         []EwbItem `json:"itemList"`
}

// EwbItem is a line of an e-way bill.
type EwbItem struct {
	ItemNo        int     `json:"itemNo"`
	ProductDesc   string  `json:"productDesc"`
	HsnCode       string  `json:"hsnCode"`
	QtyUnit       string  `json:"qtyUnit"`
	Quantity      float64 `json:"quantity"`
	TaxableAmount float64 `json:"taxableAmount"`
	CgstRate      float64 `json:"cgstRate"`
	SgstRate      float64 `json:"sgstRate"`
	IgstRate      float64 `json:"igstRate"`
	CessRate      float64 `json:"cessRate"`
}
