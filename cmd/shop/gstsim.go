package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
	"github.com/spf13/cobra"
)

// gstSimCmd is `shop gst-sim --listen ADDR`: a local Invoice Registration
// Portal and e-way bill system (package gstsim) for GST_PROVIDER=simulator.
func gstSimCmd() *cobra.Command {
	var listen string
	var opts gstsim.Options
	cmd := &cobra.Command{
		Use:   "gst-sim --listen ADDR",
		Short: "Run the GST portal simulator (a local IRP and e-way bill system) for GST_PROVIDER=simulator",
		Long: `Serves the NIC e-invoice (v1.03) and e-way bill APIs' shapes at ADDR: it checks every
e-invoice against the published schema 1.1, gives the IRN as the IRP does, signs
SignedInvoice and SignedQRCode with a key pair it makes at start (GET /sim/key serves
the public key) and answers the IRP's error codes. It accepts the GST_API_USER,
GST_API_PASSWORD, GST_CLIENT_ID and GST_CLIENT_SECRET it is started with (any
non-empty ones when unset). A session whose auth is encrypted with the key at
GET /sim/nic-key uses NIC's payload encryption (SEK, AES-256) for every call, as NIC
does; --require-encryption refuses plain sessions. --aato-10cr names GSTINs whose
AATO is 10 crore or more: their documents older than 30 days are refused (2305).
At /ewaybillapi/v1.03 it serves the e-way bill system's own API (for documents
without an IRN): ACCESSTOKEN with the credentials encrypted under the key at
GET /sim/ewb-key (the same credentials), GENEWAYBILL under the session key,
checked by NIC's e-way bill rules and refused with NIC's e-way bill error codes.
What it registers lives in memory.`,
		Example: "  bin/shop gst-sim --listen 127.0.0.1:8095",
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signalContext()
			defer stop()
			log := slog.New(slog.NewTextHandler(os.Stderr, nil))
			return runGSTSim(ctx, listen, gstsim.Credentials{User: os.Getenv("GST_API_USER"), Password: os.Getenv("GST_API_PASSWORD"),
				ClientID: os.Getenv("GST_CLIENT_ID"), ClientSecret: os.Getenv("GST_CLIENT_SECRET")}, opts, log)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:8095", "address to listen on")
	cmd.Flags().BoolVar(&opts.RequireEncryption, "require-encryption", false, "refuse sessions without NIC's payload encryption")
	cmd.Flags().StringSliceVar(&opts.LargeTaxpayers, "aato-10cr", nil, "GSTINs whose AATO is 10 crore or more (the 30-day reporting window applies)")
	return cmd
}

// runGSTSim serves a new simulator at addr until ctx ends.
func runGSTSim(ctx context.Context, addr string, creds gstsim.Credentials, opts gstsim.Options, log *slog.Logger) error {
	sim, err := gstsim.NewWith(creds, opts)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("gst-sim: %w", err)
	}
	srv := &http.Server{Handler: sim.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	log.Info("GST portal simulator listening", "addr", ln.Addr().String())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("gst-sim: %w", err)
	}
	return nil
}

// startDevGSTSim starts the simulator in-process for `shop dev` when
// GST_PROVIDER=simulator, at GST_API_URL's host and port.
func startDevGSTSim(ctx context.Context, cfg *config.Config, log *slog.Logger) {
	if cfg.GSTProvider != "simulator" {
		return
	}
	u, err := url.Parse(cfg.GSTAPIURL)
	if err != nil {
		log.Warn("GST simulator not started: GST_API_URL", "err", err)
		return
	}
	creds := gstsim.Credentials{User: cfg.GSTAPIUser, Password: cfg.GSTAPIPassword, ClientID: cfg.GSTClientID, ClientSecret: cfg.GSTClientSecret}
	go func() {
		if err := runGSTSim(ctx, u.Host, creds, gstsim.Options{}, log.With("component", "gst-sim")); err != nil {
			log.Warn("GST simulator stopped", "err", err)
		}
	}()
}
