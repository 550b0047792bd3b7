package region

// gstCodes are the GST state codes of the states and union territories (the
// first two digits of a GSTIN, and the place of supply of GSTR-1), as the
// GST portal lists them. Andhra Pradesh registers under 37 (28 is the
// undivided state's); Dadra and Nagar Haveli and Daman and Diu under 26
// since the merger, Daman and Diu's old 25 still naming existing GSTINs.
var gstCodes = map[string][]string{
	"Jammu and Kashmir": {"01"}, "Himachal Pradesh": {"02"}, "Punjab": {"03"}, "Chandigarh": {"04"},
	"Uttarakhand": {"05"}, "Haryana": {"06"}, "Delhi": {"07"}, "Rajasthan": {"08"}, "Uttar Pradesh": {"09"},
	"Bihar": {"10"}, "Sikkim": {"11"}, "Arunachal Pradesh": {"12"}, "Nagaland": {"13"}, "Manipur": {"14"},
	"Mizoram": {"15"}, "Tripura": {"16"}, "Meghalaya": {"17"}, "Assam": {"18"}, "West Bengal": {"19"},
	"Jharkhand": {"20"}, "Odisha": {"21"}, "Chhattisgarh": {"22"}, "Madhya Pradesh": {"23"}, "Gujarat": {"24"},
	"Dadra and Nagar Haveli and Daman and Diu": {"26", "25"}, "Maharashtra": {"27"}, "Karnataka": {"29"},
	"Goa": {"30"}, "Lakshadweep": {"31"}, "Kerala": {"32"}, "Tamil Nadu": {"33"}, "Puducherry": {"34"},
	"Andaman and Nicobar Islands": {"35"}, "Telangana": {"36"}, "Andhra Pradesh": {"37"}, "Ladakh": {"38"},
}

// GSTCode returns the GST state code of state (matched as Canonical matches)
// and whether it is a state or union territory of India.
func GSTCode(state string) (string, bool) {
	name, ok := Canonical(state)
	if !ok {
		return "", false
	}
	return gstCodes[name][0], true
}

// GSTCodeMatches reports whether code is a GST state code under which a
// GSTIN of state may be registered.
func GSTCodeMatches(state, code string) bool {
	name, ok := Canonical(state)
	if !ok {
		return false
	}
	for _, c := range gstCodes[name] {
		if c == code {
			return true
		}
	}
	return false
}

// StateOfGSTCode returns the state whose GST state code is code.
func StateOfGSTCode(code string) (string, bool) {
	for name, codes := range gstCodes {
		for _, c := range codes {
			if c == code {
				return name, true
			}
		}
	}
	return "", false
}
