package main

import (
	"context"
	"fmt"
	"os"

	"github.com/gocommerce/shop/internal/database"
	"github.com/spf13/cobra"
)

func migrateCmd() *cobra.Command {
	return &cobra.Command{
		Use:       "migrate [up|down|status]",
		Short:     "Apply (up), roll back one (down) or list (status) database migrations",
		Args:      cobra.MatchAll(cobra.MaximumNArgs(1), cobra.OnlyValidArgs),
		ValidArgs: []string{"up", "down", "status"},
		RunE: func(cmd *cobra.Command, args []string) error {
			command := "up"
			if len(args) == 1 {
				command = args[0]
			}
			cfg, log, err := loadConfig("")
			if err != nil {
				return err
			}
			ctx := context.Background()
			if cfg.IsDev() {
				if _, err := database.EnsureDatabase(ctx, cfg.DatabaseURL); err != nil {
					return err
				}
			}
			if err := database.Migrate(ctx, cfg.DatabaseURL, command, os.Stdout); err != nil {
				return err
			}
			if command != "status" {
				log.Info(fmt.Sprintf("migrate %s done", command))
			}
			return nil
		},
	}
}
