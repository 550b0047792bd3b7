package database_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
	"gorm.io/gorm"
)

// A batch is one statement: its parts all land (a child naming a parent
// inserted by the same batch passes its foreign key), or, when one fails,
// none does and the failing part's error comes back.
func TestBatchRunsItsStatementsAsOne(t *testing.T) {
	db, _ := testkit.MustDB(t)
	if err := db.Exec(`CREATE TABLE parent (id int PRIMARY KEY, n int NOT NULL CHECK (n >= 0));
		CREATE TABLE child (id int PRIMARY KEY, parent_id int NOT NULL REFERENCES parent, note text)`).Error; err != nil {
		t.Fatal(err)
	}
	var empty database.Batch
	if err := empty.Exec(db); err != nil {
		t.Fatalf("an empty batch: %v", err)
	}

	var b database.Batch
	b.Add("INSERT INTO parent (id, n) VALUES (?, ?), (?, ?)", 1, 5, 2, 5)
	b.Add("INSERT INTO child (id, parent_id, note) VALUES (?, ?, ?)", 10, 1, "what? a question mark")
	b.Add("UPDATE parent SET n = n - ? WHERE id = ?", 1, 3) // no such row yet: a no-op, not an error
	if b.Len() != 3 {
		t.Fatalf("Len = %d, want 3", b.Len())
	}
	if err := db.Transaction(func(tx *gorm.DB) error { return b.Exec(tx) }); err != nil {
		t.Fatalf("batch: %v\n%s", err, b.SQL())
	}
	var note string
	if err := db.Raw("SELECT note FROM child WHERE parent_id = 1").Scan(&note).Error; err != nil || note != "what? a question mark" {
		t.Fatalf("child note = %q, %v", note, err)
	}

	var failing database.Batch
	failing.Add("INSERT INTO parent (id, n) VALUES (?, ?)", 3, 1)
	failing.Add("UPDATE parent SET n = n - ? WHERE id = ?", 6, 2) // 5 - 6 breaks the CHECK
	err := db.Transaction(func(tx *gorm.DB) error { return failing.Exec(tx) })
	if database.PgCode(err) != database.CheckViolation {
		t.Fatalf("a failing part: err = %v, want its check violation", err)
	}
	var parents []int
	if err := db.Raw("SELECT id FROM parent ORDER BY id").Scan(&parents).Error; err != nil {
		t.Fatal(err)
	}
	if len(parents) != 2 {
		t.Fatalf("parents after the failed batch = %v, want [1 2]: its insert must not land", parents)
	}

	var orphan database.Batch
	orphan.Add("INSERT INTO child (id, parent_id) VALUES (?, ?)", 11, 99)
	if err := orphan.Exec(db); database.PgCode(err) != database.ForeignKeyViolation {
		t.Fatalf("a single part naming no parent: err = %v, want a foreign-key violation", err)
	}
}

// A model staged with Create is the row GORM's own Create writes.
func TestBatchCreatesAModelAsGORMWould(t *testing.T) {
	db, _ := testkit.MustDB(t)
	type note struct {
		ID    int `gorm:"primaryKey;autoIncrement:false"`
		Text  string
		Tags  []string `gorm:"serializer:json"`
		Owner *string
	}
	if err := db.Exec(`CREATE TABLE notes (id int PRIMARY KEY, text text NOT NULL, tags jsonb, owner text)`).Error; err != nil {
		t.Fatal(err)
	}
	var b database.Batch
	if err := b.Create(db, &note{ID: 1, Text: "costs $1 or $2", Tags: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	b.Add("INSERT INTO notes (id, text) VALUES (?, ?)", 2, "second")
	if err := b.Exec(db); err != nil {
		t.Fatalf("%v\n%s", err, b.SQL())
	}
	var got []note
	if err := db.Order("id").Find(&got).Error; err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Text != "costs $1 or $2" || len(got[0].Tags) != 2 || got[0].Tags[1] != "b" || got[0].Owner != nil ||
		got[1].Text != "second" {
		t.Fatalf("rows = %+v", got)
	}
}

// Insert writes every row given, in one statement, and nothing for none.
func TestBatchInsertWritesItsRows(t *testing.T) {
	db, _ := testkit.MustDB(t)
	if err := db.Exec(`CREATE TABLE pairs (k int PRIMARY KEY, v text)`).Error; err != nil {
		t.Fatal(err)
	}
	var b database.Batch
	b.Insert("pairs", []string{"k", "v"})
	if b.Len() != 0 {
		t.Fatalf("no rows staged %d statements", b.Len())
	}
	b.Insert("pairs", []string{"k", "v"}, []any{1, "one"}, []any{2, nil})
	b.Insert("pairs", []string{"k", "v"}, []any{3, "three"})
	if err := b.Exec(db); err != nil {
		t.Fatalf("%v\n%s", err, b.SQL())
	}
	var n int64
	if err := db.Raw("SELECT count(*) FROM pairs WHERE (k = 1 AND v = 'one') OR (k = 2 AND v IS NULL) OR (k = 3 AND v = 'three')").
		Scan(&n).Error; err != nil || n != 3 {
		t.Fatalf("rows written = %d, %v; want 3", n, err)
	}
}
