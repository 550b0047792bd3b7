package main

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/identity"
	"github.com/spf13/cobra"
)

func adminCmd() *cobra.Command {
	admin := &cobra.Command{Use: "admin", Short: "Manage administrator accounts"}
	var email, password, role, name string
	create := &cobra.Command{
		Use:   "create --email E --password P --role R",
		Short: "Create an administrator (roles: viewer, staff, admin, super_admin)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := context.Background()
			a, err := boot(ctx, "", "")
			if err != nil {
				return err
			}
			defer a.Close()
			adm, err := a.AdminAccounts.Create(ctx, identity.CreateInput{Email: email, Name: name, Password: password, Role: role})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "created admin %s (%s) with role %s\n", adm.Email, adm.ID, adm.Role)
			return nil
		},
	}
	create.Flags().StringVar(&email, "email", "", "email address (required)")
	create.Flags().StringVar(&password, "password", "", "password, 12 to 256 characters (required)")
	create.Flags().StringVar(&role, "role", "admin", "viewer, staff, admin or super_admin")
	create.Flags().StringVar(&name, "name", "", "display name")
	_ = create.MarkFlagRequired("email")
	_ = create.MarkFlagRequired("password")
	admin.AddCommand(create)
	return admin
}
