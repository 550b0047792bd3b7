package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/gocommerce/shop/api/messageapi"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/logging"
	"github.com/gocommerce/shop/internal/messaging/messagingsim"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"
)

// messagingSimCmd is `shop messaging-sim --listen ADDR`: the local stand-in
// for MSG91 and the WhatsApp Cloud API (internal/messaging/messagingsim),
// posting receipts and replies to the shop at --shop-url with the shop's
// webhook secrets (SMS_WEBHOOK_TOKEN, WHATSAPP_APP_SECRET).
func messagingSimCmd() *cobra.Command {
	var listen, shopURL string
	var requireOptIn bool
	cmd := &cobra.Command{
		Use:   "messaging-sim --listen ADDR [--shop-url URL]",
		Short: "Run the SMS (MSG91) and WhatsApp (Cloud API) simulator for local development and tests",
		Long: `Serves MSG91's POST /api/v5/flow and the Cloud API's POST /{version}/{phone-number-id}/messages,
refusing what they refuse (an SMS template without its registered DLT template id and sender,
an unknown WhatsApp template), records what it accepted (GET /sim/messages?to=PHONE) and posts
delivery receipts to the shop's webhooks. POST /sim/receipts {id, status} sends a receipt,
POST /sim/inbound {channel, from, text} a customer's reply (STOP).`,
		Example: "  APP_ENV=development bin/shop messaging-sim --listen 127.0.0.1:8091 --shop-url http://localhost:8080",
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.LoadFor("", config.Tooling)
			if err != nil {
				return err
			}
			log := logging.New(cmd.ErrOrStderr(), cfg.IsDev(), cfg.LogLevel)
			if shopURL == "" {
				shopURL = fmt.Sprintf("http://localhost:%d", cfg.Port)
			}
			ctx, stop := signalContext()
			defer stop()
			sim := newMessagingSim(cfg, shopURL, log)
			sim.RequireOptIn = requireOptIn
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return err
			}
			log.Info("messaging simulator listening", "addr", ln.Addr().String())
			return serveMessagingSim(ctx, ln, sim)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:8091", "address to listen on")
	cmd.Flags().StringVar(&shopURL, "shop-url", "", "the shop's base URL for receipts (default http://localhost:PORT)")
	cmd.Flags().BoolVar(&requireOptIn, "require-opt-in", false, "refuse WhatsApp messages to numbers not registered at POST /sim/whatsapp/opt-ins")
	return cmd
}

// newMessagingSim is a simulator posting to the shop at shopURL.
func newMessagingSim(cfg *config.Config, shopURL string, log *slog.Logger) *messagingsim.Server {
	sim := messagingsim.New(log)
	token := url.QueryEscape(cfg.SMSWebhookToken)
	sim.SetTargets(messagingsim.Targets{
		SMSReceipts:     shopURL + messageapi.SMSReceiptsPath + "?token=" + token,
		SMSInbound:      shopURL + messageapi.SMSInboundPath + "?token=" + token,
		WhatsAppWebhook: shopURL + messageapi.WhatsAppPath,
		AppSecret:       cfg.WhatsAppAppSecret,
	})
	return sim
}

// serveMessagingSim serves sim on ln until ctx ends.
func serveMessagingSim(ctx context.Context, ln net.Listener, sim *messagingsim.Server) error {
	srv := &http.Server{Handler: sim.Handler(), ReadHeaderTimeout: 10 * time.Second}
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	g.Go(func() error {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	})
	return g.Wait()
}

// startDevMessagingSim runs the messaging simulator in-process for `shop
// dev` when SMS_PROVIDER or WHATSAPP_PROVIDER is simulator, on
// MESSAGING_SIM_URL's address, posting to this very server.
func startDevMessagingSim(ctx context.Context, g *errgroup.Group, cfg *config.Config, log *slog.Logger) error {
	if cfg.SMSProvider != "simulator" && cfg.WhatsAppProvider != "simulator" {
		return nil
	}
	u, err := url.Parse(cfg.MessagingSimURL)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", u.Host)
	if err != nil {
		return fmt.Errorf("messaging simulator: %w", err)
	}
	sim := newMessagingSim(cfg, fmt.Sprintf("http://localhost:%d", cfg.Port), log.With("component", "messaging-sim"))
	log.Info("messaging simulator listening", "addr", ln.Addr().String())
	g.Go(func() error { return serveMessagingSim(ctx, ln, sim) })
	return nil
}
