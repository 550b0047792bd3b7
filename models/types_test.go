package models_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// JSON and StringArray round-trip through real jsonb and text[] columns,
// including the values a hand-written array format gets wrong.
func TestColumnTypesRoundTrip(t *testing.T) {
	db, _ := testkit.MustDB(t)
	if err := db.Exec(`CREATE TABLE typed (id int PRIMARY KEY, doc jsonb, tags text[])`).Error; err != nil {
		t.Fatal(err)
	}
	type row struct {
		ID   int
		Doc  models.JSON
		Tags models.StringArray
	}
	cases := []row{
		{ID: 1, Doc: models.JSON(`{"city":"Bengaluru","pin":"560001"}`), Tags: models.StringArray{"order.created", "order.paid"}},
		{ID: 2, Doc: models.JSON(`[1,2]`), Tags: models.StringArray{"", "NULL", `a "quoted", {braced} \ value`, "ಕನ್ನಡ", " padded "}},
		{ID: 3, Doc: nil, Tags: models.StringArray{}},
		{ID: 4, Doc: models.JSON(`null`), Tags: nil},
	}
	for _, c := range cases {
		if err := db.Table("typed").Create(&c).Error; err != nil {
			t.Fatalf("insert %d: %v", c.ID, err)
		}
	}
	var nulls struct{ Docs, Tags int }
	db.Raw(`SELECT count(*) FILTER (WHERE doc IS NULL) AS docs, count(*) FILTER (WHERE tags IS NULL) AS tags FROM typed`).Scan(&nulls)
	if nulls.Docs != 1 || nulls.Tags != 1 {
		t.Fatalf("NULL columns: %+v, want one empty document and one nil array stored as NULL", nulls)
	}
	var card int
	if err := db.Raw(`SELECT cardinality(tags) FROM typed WHERE id = 2`).Scan(&card).Error; err != nil || card != 5 {
		t.Fatalf("stored array has %d elements (%v), want 5", card, err)
	}
	for _, want := range cases {
		var got row
		if err := db.Table("typed").Take(&got, "id = ?", want.ID).Error; err != nil {
			t.Fatal(err)
		}
		// NULL reads as no document, which renders as null.
		gotDoc, _ := json.Marshal(got.Doc)
		wantDoc, _ := json.Marshal(want.Doc)
		var a, b any
		if json.Unmarshal(gotDoc, &a) != nil || json.Unmarshal(wantDoc, &b) != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("row %d: document %s, want %s", want.ID, gotDoc, wantDoc)
		}
		if !reflect.DeepEqual(got.Tags, want.Tags) && !(len(got.Tags) == 0 && len(want.Tags) == 0) {
			t.Errorf("row %d: array %q, want %q", want.ID, got.Tags, want.Tags)
		}
		if (got.Tags == nil) != (want.Tags == nil) {
			t.Errorf("row %d: array nil=%v, want nil=%v", want.ID, got.Tags == nil, want.Tags == nil)
		}
	}
}

// JSON embeds in a response as the document itself, not base64.
func TestJSONMarshalsAsDocument(t *testing.T) {
	out, err := json.Marshal(struct {
		Address models.JSON `json:"address"`
		None    models.JSON `json:"none"`
	}{Address: models.JSON(`{"city":"Pune"}`)})
	if err != nil || string(out) != `{"address":{"city":"Pune"},"none":null}` {
		t.Fatalf("%s %v", out, err)
	}
	var back struct{ Address models.JSON }
	if err := json.Unmarshal(out, &back); err != nil || string(back.Address) != `{"city":"Pune"}` {
		t.Fatalf("%s %v", back.Address, err)
	}
}
