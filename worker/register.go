package worker

import (
	"fmt"

	"github.com/gocommerce/shop/internal/app"
	"github.com/hibiken/asynq"
)

// register mounts every domain's task handlers on the services of a. Each
// domain has one registerX function in its own file of this package.
func register(mux *asynq.ServeMux, a *app.App) {
	registerOutbox(mux, a)
	registerBackoffice(mux, a)
	registerStorefront(mux, a)
	registerPayments(mux, a)
	registerWebhooks(mux, a)
	registerMail(mux, a)
	registerExports(mux, a)
	registerMedia(mux, a)
	registerCourier(mux, a)
	registerGST(mux, a)
	registerMessages(mux, a)
}

func sprint(args []any) string { return fmt.Sprint(args...) }
