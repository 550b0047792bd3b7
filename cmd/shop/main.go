// Command shop is the one binary of the service: the API, the worker, the
// scheduler, migrations, seeding and administration, as subcommands.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	root := &cobra.Command{
		Use:           "shop",
		Short:         "shop: an e-commerce back end (admin API, storefront API, payment webhooks)",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(apiCmd(), workerCmd(), schedulerCmd(), devCmd(), migrateCmd(), adminCmd(), seedCmd(), gatewayCmd(), versionCmd())
	root.AddCommand(carrierSimCmd())
	root.AddCommand(gstSimCmd())
	root.AddCommand(messagingSimCmd())
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "shop:", err)
		os.Exit(1)
	}
}

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Run:   func(cmd *cobra.Command, _ []string) { fmt.Fprintln(cmd.OutOrStdout(), "shop", version) },
	}
}
