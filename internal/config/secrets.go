package config

import (
	"fmt"
	"strings"
)

// Purpose says what a command does with the configuration, and so which
// secrets it must have.
type Purpose int

const (
	// Serving is a process that signs and checks tokens (api, worker,
	// scheduler, dev): ADMIN_JWT_SECRET and CUSTOMER_JWT_SECRET are required.
	Serving Purpose = iota
	// Tooling is a one-off command that signs no token (migrate, admin
	// create, seed, gateway simulate): a token secret is checked only when
	// it is set, so the command runs where only DATABASE_URL is known.
	Tooling
)

// generate is how the secret errors say to make a key.
const generate = "e.g. openssl rand -base64 48; APP_ENV=development supplies a local one"

// validateSecrets checks the signing secrets purpose needs, and that no
// secret set in production is a development one.
func (c *Config) validateSecrets(purpose Purpose) error {
	need := purpose == Serving
	if (need || c.AdminJWTSecret != "") && len(c.AdminJWTSecret) < MinSecretBytes {
		return fieldErr("ADMIN_JWT_SECRET", fmt.Sprintf("must be set to at least %d bytes, the key that signs admin tokens (%s)", MinSecretBytes, generate))
	}
	if (need || c.CustomerJWTSecret != "") && len(c.CustomerJWTSecret) < MinSecretBytes {
		return fieldErr("CUSTOMER_JWT_SECRET", fmt.Sprintf("must be set to at least %d bytes, the key that signs customer tokens (%s)", MinSecretBytes, generate))
	}
	if c.AdminJWTSecret != "" && c.AdminJWTSecret == c.CustomerJWTSecret {
		return fieldErr("CUSTOMER_JWT_SECRET", "must differ from ADMIN_JWT_SECRET, so that neither kind of token passes for the other")
	}
	if !c.IsDev() {
		for name, v := range map[string]string{"ADMIN_JWT_SECRET": c.AdminJWTSecret, "CUSTOMER_JWT_SECRET": c.CustomerJWTSecret, "GATEWAY_WEBHOOK_SECRET": c.GatewayWebhookSecret,
			"S3_SECRET_ACCESS_KEY": c.Media.S3.SecretAccessKey} {
			if strings.HasPrefix(v, "dev-only-") {
				return fieldErr(name, "must not use the development secret in production (set your own, or APP_ENV=development)")
			}
		}
	}
	return nil
}
