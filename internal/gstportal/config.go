package gstportal

import (
	"crypto/rsa"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/gocommerce/shop/internal/config"
)

// FromConfig returns the provider GST_PROVIDER names, its calls made
// through transport with GST_TIMEOUT. With GST_NIC_ENCRYPTION_KEY the nic
// adapter encrypts its payloads as NIC's own API demands; without, it
// sends plain JSON, as a GSP takes it. E-way bills of documents without
// an IRN go to the e-way bill system's own API (GST_EWB_*, ewb.go), always
// encrypted. Errors: an unknown provider, an
// unreadable GST_IRP_PUBLIC_KEY or GST_NIC_ENCRYPTION_KEY.
func FromConfig(cfg *config.Config, transport http.RoundTripper) (Provider, error) {
	client := &http.Client{Timeout: cfg.GSTTimeout, Transport: transport}
	switch cfg.GSTProvider {
	case "", None:
		return NewNone(), nil
	case Simulator:
		return NewNIC(NICConfig{BaseURL: cfg.GSTAPIURL, User: cfg.GSTAPIUser, Password: cfg.GSTAPIPassword,
			ClientID: orDefault(cfg.GSTClientID, "sim-client"), ClientSecret: orDefault(cfg.GSTClientSecret, "sim-secret"),
			Client: client, Name: Simulator, KeyURL: strings.TrimRight(cfg.GSTAPIURL, "/") + "/sim/key",
			// The simulator speaks NIC's encryption as NIC does, so the
			// adapter that goes live against NIC is the one every test runs.
			EncryptionKeyURL: strings.TrimRight(cfg.GSTAPIURL, "/") + "/sim/nic-key",
			Ewb: ewbConfig(cfg, strings.TrimRight(cfg.GSTAPIURL, "/")+PathEwbBase, "sim-user", "sim-password", "sim-client", "sim-secret",
				nil, strings.TrimRight(cfg.GSTAPIURL, "/")+"/sim/ewb-key")}).withSimUser(), nil
	case NICName:
		raw, err := os.ReadFile(cfg.GSTIRPPublicKey)
		if err != nil {
			return nil, fmt.Errorf("gstportal: GST_IRP_PUBLIC_KEY: %w", err)
		}
		key, err := ParsePublicKey(raw)
		if err != nil {
			return nil, fmt.Errorf("gstportal: GST_IRP_PUBLIC_KEY: %w", err)
		}
		var encKey *rsa.PublicKey
		if cfg.GSTNICEncryptionKey != "" {
			raw, err := os.ReadFile(cfg.GSTNICEncryptionKey)
			if err != nil {
				return nil, fmt.Errorf("gstportal: GST_NIC_ENCRYPTION_KEY: %w", err)
			}
			if encKey, err = ParsePublicKey(raw); err != nil {
				return nil, fmt.Errorf("gstportal: GST_NIC_ENCRYPTION_KEY: %w", err)
			}
		}
		ewbKey := encKey
		if cfg.GSTEwbPublicKey != "" {
			raw, err := os.ReadFile(cfg.GSTEwbPublicKey)
			if err != nil {
				return nil, fmt.Errorf("gstportal: GST_EWB_PUBLIC_KEY: %w", err)
			}
			if ewbKey, err = ParsePublicKey(raw); err != nil {
				return nil, fmt.Errorf("gstportal: GST_EWB_PUBLIC_KEY: %w", err)
			}
		}
		return NewNIC(NICConfig{BaseURL: cfg.GSTAPIURL, User: cfg.GSTAPIUser, Password: cfg.GSTAPIPassword,
			ClientID: cfg.GSTClientID, ClientSecret: cfg.GSTClientSecret, PublicKey: key, EncryptionKey: encKey, Client: client,
			Ewb: ewbConfig(cfg, cfg.GSTEwbAPIURL, "", "", "", "", ewbKey, "")}), nil
	}
	return nil, fmt.Errorf("gstportal: unknown provider %q", cfg.GSTProvider)
}

// ewbConfig is the e-way bill API's configuration: GST_EWB_* or, unset,
// the GST_API_* credentials (then the defaults given, the simulator's),
// at url (GST_EWB_API_URL with nic).
func ewbConfig(cfg *config.Config, url, user, password, clientID, secret string, key *rsa.PublicKey, keyURL string) EwbConfig {
	if cfg.GSTEwbAPIURL != "" {
		url = cfg.GSTEwbAPIURL
	}
	return EwbConfig{URL: url, Key: key, KeyURL: keyURL,
		User:         orDefault(cfg.GSTEwbUser, orDefault(cfg.GSTAPIUser, user)),
		Password:     orDefault(cfg.GSTEwbPassword, orDefault(cfg.GSTAPIPassword, password)),
		ClientID:     orDefault(cfg.GSTEwbClientID, orDefault(cfg.GSTClientID, clientID)),
		ClientSecret: orDefault(cfg.GSTEwbClientSecret, orDefault(cfg.GSTClientSecret, secret))}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// withSimUser fills the simulator's user and password when unset: it
// takes any that are not empty.
func (n *NIC) withSimUser() *NIC {
	n.cfg.User, n.cfg.Password = orDefault(n.cfg.User, "sim-user"), orDefault(n.cfg.Password, "sim-password")
	return n
}
