package main

import (
	"context"
	"fmt"
	"os"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/database"
	"github.com/spf13/cobra"
)

// migrateCmd is `shop migrate` with one subcommand per direction, so that
// each prints its own help. `shop migrate` alone is `shop migrate up`, as it
// always was. Migrations need DATABASE_URL only: no secret.
func migrateCmd() *cobra.Command {
	up := migrateStep("up", "Apply every pending migration",
		`Applies every migration not yet applied to DATABASE_URL, in order, each in
its own transaction. Run it before each release: migrations are written so
that the previous release keeps working on the new schema while a rolling
deploy replaces it (docs/OPERATIONS.md, "Upgrades"). With APP_ENV=development
the database is created first when it does not exist.`)
	down := migrateStep("down", "Roll back the most recent migration",
		`Rolls back the one most recently applied migration of DATABASE_URL. Safe
only while the release that needs it is not running, and only for a
migration whose down step loses no data; docs/OPERATIONS.md ("Upgrades")
says when. Take a backup first.`)
	status := migrateStep("status", "List every migration and whether it is applied",
		`Lists the migrations built into this binary with, for each, when it was
applied to DATABASE_URL or "pending". Changes nothing.`)
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Apply (up), roll back one (down) or list (status) database migrations",
		Long: `Database migrations of DATABASE_URL, built into the binary. Without a
subcommand, migrate is migrate up.`,
		Args: cobra.NoArgs,
		RunE: up.RunE,
	}
	cmd.AddCommand(up, down, status)
	return cmd
}

func migrateStep(command, short, long string) *cobra.Command {
	return &cobra.Command{
		Use:   command,
		Short: short,
		Long:  long,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, log, err := loadConfig("", config.Tooling)
			if err != nil {
				return err
			}
			ctx := context.Background()
			if cfg.IsDev() && command != "down" {
				if _, err := database.EnsureDatabase(ctx, cfg.DatabaseURL); err != nil {
					return err
				}
			}
			if err := database.Migrate(ctx, database.WithStoreState(cfg.DatabaseURL, cfg.StoreState), command, os.Stdout); err != nil {
				return err
			}
			if command != "status" {
				log.Info(fmt.Sprintf("migrate %s done", command))
			}
			return nil
		},
	}
}
