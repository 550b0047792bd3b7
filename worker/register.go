package worker

import (
	"fmt"

	"github.com/gocommerce/shop/internal/deps"
	"github.com/hibiken/asynq"
)

// register mounts every domain's task handlers. Each domain has one
// registerX function in its own file of this package.
func register(mux *asynq.ServeMux, d *deps.Deps) {
	registerOutbox(mux, d)
	registerBackoffice(mux, d)
	registerStorefront(mux, d)
	registerPayments(mux, d)
	registerWebhooks(mux, d)
	registerAdminMail(mux, d)
}

func sprint(args []any) string { return fmt.Sprint(args...) }
