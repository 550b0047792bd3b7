package main

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/seed"
	"github.com/spf13/cobra"
)

func seedCmd() *cobra.Command {
	var products, variantsPer int
	cmd := &cobra.Command{
		Use:   "seed",
		Short: "Seed a demo shop (categories, products with variants and stock, a customer group, a discount code, an admin)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := context.Background()
			a, err := boot(ctx, "", "")
			if err != nil {
				return err
			}
			defer a.Close()
			res, err := seed.Run(ctx, a.DB, seed.Options{Products: products, VariantsPerProduct: variantsPer, ResetAdminPassword: a.Config.IsDev(), Images: a.Media})
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), res.Summary(a.Config.Port))
			return nil
		},
	}
	cmd.Flags().IntVar(&products, "products", 50, "number of demo products")
	cmd.Flags().IntVar(&variantsPer, "variants", 3, "variants per product")
	return cmd
}
