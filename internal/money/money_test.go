package money

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestAmountJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Amount
		err  bool
		out  string
	}{
		{name: "integer", in: "499", want: 49900, out: "499"},
		{name: "one decimal", in: "499.5", want: 49950, out: "499.5"},
		{name: "two decimals", in: "0.05", want: 5, out: "0.05"},
		{name: "trailing zeros", in: "12.500", want: 1250, out: "12.5"},
		{name: "negative", in: "-3.25", want: -325, out: "-3.25"},
		{name: "zero", in: "0", want: 0, out: "0"},
		{name: "three decimals", in: "1.005", err: true},
		{name: "exponent", in: "1e3", err: true},
		{name: "string", in: `"10"`, err: true},
		{name: "huge", in: "1000000000000000", err: true},
		{name: "bare dot", in: "1.", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a Amount
			err := json.Unmarshal([]byte(tt.in), &a)
			if tt.err {
				if err == nil {
					t.Fatalf("want error, got %d", a)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a != tt.want {
				t.Fatalf("got %d want %d", a, tt.want)
			}
			b, _ := json.Marshal(a)
			if string(b) != tt.out {
				t.Fatalf("marshal got %s want %s", b, tt.out)
			}
		})
	}
}

// A refused amount says what is wrong with it, and every refusal is ErrFormat.
func TestAmountJSONIssues(t *testing.T) {
	tests := []struct{ in, issue string }{
		{"1.005", "must have at most 2 decimal places"},
		{"0.0001", "must have at most 2 decimal places"},
		{"1e3", "must be written without an exponent (1000, not 1e3)"},
		{"1.5E+2", "must be written without an exponent (1000, not 1e3)"},
		{`"10"`, "must be a JSON number, not a string"},
		{"true", "must be a number"},
		{"{}", "must be a number"},
		{"1234567890123", "must be at most 100000000000"},
		{"100000000000.01", "must be at most 100000000000"},
		{"-1234567890123", "must be at least -100000000000"},
	}
	for _, tt := range tests {
		var a Amount
		err := a.UnmarshalJSON([]byte(tt.in))
		if err == nil || err.Error() != tt.issue || !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v, want %q (and ErrFormat)", tt.in, err, tt.issue)
		}
		var r Rate
		if err := r.UnmarshalJSON([]byte(tt.in)); err == nil || err.Error() != tt.issue {
			t.Errorf("rate %s: error %v, want %q", tt.in, err, tt.issue)
		}
	}
	var a Amount
	if err := a.UnmarshalJSON([]byte("100000000000")); err != nil || a != MaxAmount {
		t.Fatalf("MaxAmount: %d, %v", a, err)
	}
}

func TestIncludedTax(t *testing.T) {
	tests := []struct {
		name  string
		gross Amount
		rate  Rate
		want  Amount
	}{
		{name: "18 percent of 118", gross: 11800, rate: 1800, want: 1800},
		{name: "5 percent rounds half up", gross: 10000, rate: 500, want: 476}, // 476.19
		{name: "12 percent", gross: 99900, rate: 1200, want: 10704},            // 10703.57
		{name: "0.25 percent", gross: 100000, rate: 25, want: 249},             // 249.38
		{name: "zero rate", gross: 5000, rate: 0, want: 0},
		{name: "28 percent one paisa", gross: 1, rate: 2800, want: 0}, // 0.22
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IncludedTax(tt.gross, tt.rate); got != tt.want {
				t.Fatalf("IncludedTax(%d,%d) = %d want %d", tt.gross, tt.rate, got, tt.want)
			}
		})
	}
}

func TestPercentHalfUp(t *testing.T) {
	if got := Amount(1005).Percent(1000); got != 101 { // 100.5 -> 101
		t.Fatalf("got %d", got)
	}
	if got := Amount(1004).Percent(1000); got != 100 { // 100.4 -> 100
		t.Fatalf("got %d", got)
	}
}

func TestIncludedGSTHalvesAreEqual(t *testing.T) {
	cases := []struct {
		name            string
		gross           Amount
		rate, cess      Rate
		wantGST, wantCs Amount
	}{
		// 1180 at 18 %: taxable 1000, each half 90.
		{"exact", 118000, 1800, 0, 18000, 0},
		// 1001.53 at 18 %: taxable 848.75..., half 76.39, old single rounding 152.78 too.
		{"odd", 100153, 1800, 0, 15278, 0},
		// 10 at 5 %: taxable 9.5238, half 0.238 → 0.24, gst 0.48.
		{"small", 1000, 500, 0, 48, 0},
		// 1 paisa short of a tie at 0.25 %: half the rate is 0.125 %.
		{"quarter", 100000, 25, 0, 2 * 125, 0},
		// 28 % + 12 % cess on 1400: taxable 1000, gst 280, cess 120.
		{"cess", 140000, 2800, 1200, 28000, 12000},
		{"zero", 5000, 0, 0, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gst, cess := IncludedGST(tc.gross, tc.rate, tc.cess)
			if gst != tc.wantGST || cess != tc.wantCs {
				t.Fatalf("IncludedGST(%d, %d, %d) = %d, %d; want %d, %d", tc.gross, tc.rate, tc.cess, gst, cess, tc.wantGST, tc.wantCs)
			}
			if gst%2 != 0 {
				t.Fatalf("gst %d is odd: the halves would differ", gst)
			}
			cgst, sgst, igst := SplitGST(gst, true)
			if cgst != sgst || igst != 0 || cgst+sgst != gst {
				t.Fatalf("SplitGST(%d) = %d, %d, %d", gst, cgst, sgst, igst)
			}
			taxable := tc.gross - gst - cess
			if want := taxable.Percent(tc.rate / 2); tc.rate%2 == 0 && (cgst-want > 1 || want-cgst > 1) {
				t.Fatalf("half %d is not the taxable %d at half the rate (%d)", cgst, taxable, want)
			}
		})
	}
}
