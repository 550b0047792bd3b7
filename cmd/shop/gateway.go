package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/spf13/cobra"
)

// gatewayCmd is `shop gateway`: the payment gateway's stand-in for local
// development with the simulator provider.
func gatewayCmd() *cobra.Command {
	gw := &cobra.Command{Use: "gateway", Short: "Payment gateway tools for local development"}
	var orderID, linkID, target, currency, eventID, paymentID string
	var amount int64
	sim := &cobra.Command{
		Use:   "simulate EVENT (--order-id ID | --link-id ID) [--amount N] [--url U]",
		Short: "Sign and post a gateway webhook (payment.captured, order.paid, payment.failed, payment.authorized, payment_link.paid)",
		Long: `Builds a well-formed gateway event for the checkout whose paymentIntentId is
--order-id (or, for payment_link.paid, for the draft order or the order's
balance whose paymentLink.id is --link-id), signs it with GATEWAY_WEBHOOK_SECRET and posts
it to the webhook, as the gateway would. --amount is in minor units (paise);
without it the checkout session's total and currency are read from
DATABASE_URL.

Like every command, it reads an unset APP_ENV as production, where
GATEWAY_WEBHOOK_SECRET must be the secret of the server posted to; with
APP_ENV=development it is the development secret of 'make run' unless set.`,
		Example: "  APP_ENV=development bin/shop gateway simulate payment.captured --order-id order_sim_1a2b3c4d5e6f7a8b\n" +
			"  APP_ENV=development bin/shop gateway simulate payment_link.paid --link-id plink_sim_1a2b3c4d5e6f7a",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, log, err := loadConfig("", config.Tooling)
			if err != nil {
				return err
			}
			if cfg.GatewayWebhookSecret == "" {
				return errors.New("config: GATEWAY_WEBHOOK_SECRET must be set to the secret the server verifies webhooks with " +
					"(APP_ENV=development signs with the development secret of 'make run')")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			intent := orderID
			if args[0] == gateway.PaymentLinkPaid {
				if linkID == "" {
					return errors.New("payment_link.paid needs --link-id (the draft order's paymentLink.id)")
				}
				intent, orderID = linkID, ""
			} else if orderID == "" {
				return errors.New("--order-id is required (the checkout's paymentIntentId)")
			}
			if amount < 0 {
				if amount, currency, err = sessionTotal(ctx, cfg, log, intent); err != nil {
					return err
				}
			}
			if target == "" {
				target = fmt.Sprintf("http://localhost:%d%s", cfg.Port, gatewayapi.Path)
			}
			if eventID == "" {
				eventID = gateway.NewEventID()
			}
			body := gateway.BuildEvent(gateway.Simulated{Name: args[0], EventID: eventID, OrderID: orderID, LinkID: linkID,
				PaymentID: paymentID, Amount: amount, Currency: currency})
			status, resp, err := gateway.Post(ctx, &http.Client{Timeout: 15 * time.Second}, target, cfg.GatewayWebhookSecret, body)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "POST %s\n%s\n→ %d %s\n", target, body, status, resp)
			if status >= 300 {
				return fmt.Errorf("webhook answered %d", status)
			}
			return nil
		},
	}
	f := sim.Flags()
	f.StringVar(&orderID, "order-id", "", "gateway order id: the checkout's paymentIntentId (required but for payment_link.paid)")
	f.StringVar(&linkID, "link-id", "", "payment link id of payment_link.paid: the draft order's paymentLink.id")
	f.Int64Var(&amount, "amount", -1, "amount in minor units (paise); default: the checkout session's total")
	f.StringVar(&currency, "currency", "INR", "currency, when --amount is given")
	f.StringVar(&target, "url", "", "webhook URL (default http://localhost:$PORT"+gatewayapi.Path+")")
	f.StringVar(&eventID, "event-id", "", "event id (default: random; repeat one to test de-duplication)")
	f.StringVar(&paymentID, "payment-id", "", "gateway payment id (default: random pay_sim_...)")
	gw.AddCommand(sim)
	return gw
}

// sessionTotal reads the amount and currency of the checkout session of a
// gateway order id. It opens only the database: nothing else is needed.
func sessionTotal(ctx context.Context, cfg *config.Config, log *slog.Logger, orderID string) (int64, string, error) {
	db, err := database.Open(ctx, cfg.DatabaseURL, database.Options{MaxConns: 1, Logger: log})
	if err != nil {
		return 0, "", fmt.Errorf("reading the checkout total from DATABASE_URL (or pass --amount): %w", err)
	}
	defer database.Close(db)
	var row struct {
		Total    int64
		Currency string
	}
	// A payment link is a draft order's checkout, or an order's balance.
	err = db.WithContext(ctx).Raw(`SELECT total, currency FROM checkout_sessions WHERE payment_provider = ? AND payment_intent_id = ?
		UNION ALL SELECT l.amount, o.currency FROM order_payment_links l JOIN orders o ON o.id = l.order_id WHERE l.link_id = ?
		LIMIT 1`, cfg.PaymentProvider, orderID, orderID).Scan(&row).Error
	if err != nil {
		return 0, "", fmt.Errorf("reading the checkout total (or pass --amount): %w", err)
	}
	if row.Currency == "" {
		return 0, "", fmt.Errorf("no %s checkout session has paymentIntentId %q; pass --amount to send anyway", cfg.PaymentProvider, orderID)
	}
	return row.Total, row.Currency, nil
}
