package database_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/database"
)

func TestLikeEscape(t *testing.T) {
	if got := database.LikeContains(`50%_off\`); got != `%50\%\_off\\%` {
		t.Fatalf("LikeContains = %q", got)
	}
	if got := database.LikeEscape(`a_b%`); got != `a\_b\%` {
		t.Fatalf("LikeEscape = %q", got)
	}
}
