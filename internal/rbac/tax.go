package rbac

// Tax documents (docs/DECISIONS.md "Tax documents"): everyone reads the
// documents and the store's tax identity; only a super admin changes the
// identity (it is what every document is issued under); the GSTR-1 return
// is for those who file it.
var (
	TaxSettingsRead  = Permission{"tax_settings.read", Viewer}
	TaxSettingsWrite = Permission{"tax_settings.write", SuperAdmin}
	InvoicesRead     = Permission{"invoices.read", Viewer}
	GSTR1Read        = Permission{"reports.gstr1", Admin}
)

// EInvoicesRetry lets staff send again a document the IRP refused
// (docs/DECISIONS.md "E-invoices and e-way bills").
var EInvoicesRetry = Permission{"einvoices.retry", Staff}
