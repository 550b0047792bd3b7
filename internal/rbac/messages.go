package rbac

// Customer messages (docs/DECISIONS.md "Customer messages and COD
// confirmation"): everyone reads the message settings and an order's
// messages; only a super admin changes the settings (they decide what is
// sent to every customer, under the store's DLT registration).
var (
	MessageSettingsRead  = Permission{"message_settings.read", Viewer}
	MessageSettingsWrite = Permission{"message_settings.write", SuperAdmin}
)
