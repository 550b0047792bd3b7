package rbac

// Payments outside the gateway (docs/DECISIONS.md "Cash on delivery and
// offline payments"): everyone reads the payment settings, only a super
// admin changes them (they decide what checkout offers and charges); staff
// record money received and upload couriers' remittances.
var (
	PaymentSettingsRead  = Permission{"payment_settings.read", Viewer}
	PaymentSettingsWrite = Permission{"payment_settings.write", SuperAdmin}
	PaymentsRecord       = Permission{"payments.record", Staff}
)
