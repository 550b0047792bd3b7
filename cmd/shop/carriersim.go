package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/gocommerce/shop/api/courierapi"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/courier/shiprockettest"
	"github.com/spf13/cobra"
)

// carrierSimCmd is `shop carrier-sim`: the courier simulator (Shiprocket's
// API shapes, package shiprockettest) for local development and its scan
// command (docs/DECISIONS.md "Couriers").
func carrierSimCmd() *cobra.Command {
	var listen string
	cmd := &cobra.Command{
		Use:   "carrier-sim --listen ADDR",
		Short: "Run the courier simulator (Shiprocket's API shapes) that CARRIER=simulator talks to",
		Long: `Serves Shiprocket's public API v1 (external) shapes on ADDR: login with
CARRIER_EMAIL and CARRIER_PASSWORD, serviceability (every pincode with COD
but those in CARRIER_SIM_UNSERVICEABLE and CARRIER_SIM_NO_COD), adhoc orders,
AWBs, pickups, labels, manifests, tracking and NDR actions. Scans are posted
to CARRIER_WEBHOOK_URL (default: this machine's shop) with
CARRIER_WEBHOOK_TOKEN in X-Api-Key; CARRIER_SIM_AUTO=1 plays each parcel to
delivered by itself. 'shop dev' runs it in-process when CARRIER=simulator.`,
		Example: "  APP_ENV=development CARRIER=simulator bin/shop carrier-sim --listen 127.0.0.1:4011",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, log, err := loadConfig("", config.Tooling)
			if err != nil {
				return err
			}
			ctx, stop := signalContext()
			defer stop()
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return err
			}
			return serveCarrierSim(ctx, cfg, log, ln)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", config.DevCarrierSimAddr, "address to listen on")
	cmd.AddCommand(carrierScanCmd())
	return cmd
}

// serveCarrierSim serves the simulator on ln until ctx ends.
func serveCarrierSim(ctx context.Context, cfg *config.Config, log *slog.Logger, ln net.Listener) error {
	hook := cfg.CarrierWebhookURL
	if hook == "" {
		hook = fmt.Sprintf("http://localhost:%d%s", cfg.Port, courierapi.WebhookPath)
	}
	sim := shiprockettest.New(shiprockettest.Config{Email: cfg.CarrierEmail, Password: cfg.CarrierPassword,
		Unserviceable: cfg.CarrierSimUnserviceable, NoCOD: cfg.CarrierSimNoCOD, WebhookURL: hook,
		WebhookToken: cfg.CarrierWebhookToken, Auto: cfg.CarrierSimAuto, PublicURL: "http://" + ln.Addr().String(),
		Log: log.With("component", "carrier-sim")})
	defer sim.Close()
	srv := &http.Server{Handler: sim.Handler(), ReadHeaderTimeout: 10 * time.Second}
	log.Info("carrier simulator listening", "addr", ln.Addr().String(), "webhook", hook, "auto", cfg.CarrierSimAuto)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shut)
}

// startDevCarrierSim starts the simulator in-process for `shop dev` (dev)
// when CARRIER=simulator points at this machine's default address; it
// stops with ctx.
func startDevCarrierSim(ctx context.Context, dev bool, cfg *config.Config, log *slog.Logger) error {
	if !dev || cfg.Carrier != courier.Simulator || cfg.CarrierAPIURL != "http://"+config.DevCarrierSimAddr {
		return nil
	}
	ln, err := net.Listen("tcp", config.DevCarrierSimAddr)
	if err != nil {
		return fmt.Errorf("carrier simulator: %w", err)
	}
	go func() {
		if err := serveCarrierSim(ctx, cfg, log, ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("carrier simulator stopped", "err", err)
		}
	}()
	return nil
}

// carrierScanCmd is `shop carrier-sim scan`: have the simulator send a scan.
func carrierScanCmd() *cobra.Command {
	var awb, status, reason, target string
	cmd := &cobra.Command{
		Use:     "scan --awb AWB --status STATUS [--reason TEXT]",
		Short:   "Have the courier simulator scan a parcel and post the tracking webhook to the shop",
		Long:    "STATUS is one of: booked, picked_up, in_transit, out_for_delivery, delivered, undelivered, rto_initiated, rto_in_transit, rto_delivered, lost.",
		Example: "  bin/shop carrier-sim scan --awb SIM00000501001 --status undelivered --reason 'Customer not available'",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if awb == "" || status == "" {
				return errors.New("--awb and --status are required")
			}
			body, _ := json.Marshal(shiprockettest.ScanRequest{AWB: awb, Status: status, Reason: reason})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, target+"/sim/scans", bytes.NewReader(body))
			if err != nil {
				return err
			}
			req.Header.Set("Content-Type", "application/json")
			resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			out, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
			fmt.Fprintf(cmd.OutOrStdout(), "POST %s/sim/scans\n%s\n→ %d %s", target, body, resp.StatusCode, out)
			if resp.StatusCode >= 300 {
				return fmt.Errorf("the simulator answered %d", resp.StatusCode)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&awb, "awb", "", "the parcel's AWB (its fulfilment's trackingNumber)")
	f.StringVar(&status, "status", "", "the scan's status")
	f.StringVar(&reason, "reason", "", "the scan's remark (an NDR's reason)")
	f.StringVar(&target, "url", "http://"+config.DevCarrierSimAddr, "the simulator's address")
	return cmd
}
