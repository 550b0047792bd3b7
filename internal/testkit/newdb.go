package testkit

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// MustNewDatabaseURL returns the URL of a database that does not exist yet,
// for a test of code that creates and migrates its own (`shop dev`, as
// `make run` does); it is dropped when tb ends, and its name is one that
// dropStale removes if a killed run leaves it behind.
func MustNewDatabaseURL(tb testing.TB) string {
	tb.Helper()
	name := fmt.Sprintf("shop_test_%d_%s", time.Now().Unix(), strings.ReplaceAll(uuid.NewString()[:8], "-", ""))
	server := ServerURL()
	tb.Cleanup(func() { dropDatabase(server, name) })
	return withDatabase(server, name)
}
