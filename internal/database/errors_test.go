package database_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/jackc/pgx/v5"
)

// A connection the server closed (as on a restart) is "database
// unavailable", 503, not an unexpected error: both the error of the query
// the server cut short and that of the next use of the dead connection.
func TestClosedConnectionIsUnavailable(t *testing.T) {
	ctx := context.Background()
	url := testkit.MustDatabaseURL(t)
	victim, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close(ctx)
	killer, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer killer.Close(ctx)
	pid := victim.PgConn().PID()
	if _, err := killer.Exec(ctx, "SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	_, first := victim.Exec(ctx, "SELECT 1")
	_, next := victim.Exec(ctx, "SELECT 1")

	for _, tt := range []struct {
		name string
		err  error
		want bool
	}{
		{"the query on a terminated connection", first, true},
		{"the next use of that connection", fmt.Errorf("cart.add_item: %w", next), true},
		{"a read cut short mid-message", fmt.Errorf("cart.create: %w", io.ErrUnexpectedEOF), true},
		{"a plain error", errors.New("cart.add_item: something else"), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil {
				t.Fatal("no error")
			}
			if got := database.IsUnavailable(tt.err); got != tt.want {
				t.Fatalf("IsUnavailable(%v) = %v", tt.err, got)
			}
			e, ok := apperr.As(database.Translate(tt.err, "cart"))
			if tt.want && (!ok || e.Code != apperr.Unavailable) {
				t.Fatalf("Translate(%v) = %v", tt.err, e)
			}
		})
	}
}
