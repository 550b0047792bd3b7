package messaging

// Events a message is sent for: the keys of the message settings' events
// (GET/PUT /admin/settings/messages).
const (
	EventOrderConfirmed  = "orderConfirmed"
	EventShipped         = "shipped"
	EventOutForDelivery  = "outForDelivery"
	EventDelivered       = "delivered"
	EventNDR             = "ndr"
	EventPaymentLink     = "paymentLink"
	EventCODConfirmation = "codConfirmation"
	EventCODOTP          = "codOtp"
)

// Events lists every event in the order the settings show them.
var Events = []string{EventOrderConfirmed, EventShipped, EventOutForDelivery, EventDelivered, EventNDR,
	EventPaymentLink, EventCODConfirmation, EventCODOTP}

// Variables names each event's template variables in the order they fill
// the template's placeholders (MSG91's var1, var2...; WhatsApp's {{1}},
// {{2}}...): a template registered for the event must take exactly these.
var Variables = map[string][]string{
	EventOrderConfirmed:  {"name", "orderNumber", "total"},
	EventShipped:         {"name", "orderNumber", "carrier", "trackingNumber", "trackingUrl"},
	EventOutForDelivery:  {"name", "orderNumber", "trackingNumber"},
	EventDelivered:       {"name", "orderNumber"},
	EventNDR:             {"name", "orderNumber", "reason"},
	EventPaymentLink:     {"name", "amount", "url"},
	EventCODConfirmation: {"name", "orderNumber", "total", "url"},
	EventCODOTP:          {"code", "minutes"},
}

// Template is the demo registration of an event's templates, which the
// simulator knows from its start and `make run`'s settings name: the SMS
// template (MSG91 id, DLT template id, sender id) and the WhatsApp template
// (name, language), with the approved text (MSG91's ##var## placeholders
// written {#var#} as DLT registers them; WhatsApp's {{n}}).
type Template struct {
	SMSTemplateID string
	DLTTemplateID string
	SenderID      string
	WhatsAppName  string
	Language      string
	SMSText       string
	WhatsAppText  string
}

// DemoSender is the demo templates' SMS header.
const DemoSender = "SHOPIN"

// DemoTemplates are the templates of the simulator and of the demo shop.
var DemoTemplates = map[string]Template{
	EventOrderConfirmed: {"order_confirmed", "1107170000000000001", DemoSender, "order_confirmed", "en",
		"Hi {#var#}, your order {#var#} of Rs {#var#} is confirmed. - Shop",
		"Hi {{1}}, your order {{2}} of ₹{{3}} is confirmed."},
	EventShipped: {"order_shipped", "1107170000000000002", DemoSender, "order_shipped", "en",
		"Hi {#var#}, your order {#var#} has shipped with {#var#}, tracking {#var#}: {#var#} - Shop",
		"Hi {{1}}, your order {{2}} has shipped with {{3}}, tracking {{4}}: {{5}}"},
	EventOutForDelivery: {"out_for_delivery", "1107170000000000003", DemoSender, "out_for_delivery", "en",
		"Hi {#var#}, your order {#var#} (tracking {#var#}) is out for delivery today. - Shop",
		"Hi {{1}}, your order {{2}} (tracking {{3}}) is out for delivery today."},
	EventDelivered: {"order_delivered", "1107170000000000004", DemoSender, "order_delivered", "en",
		"Hi {#var#}, your order {#var#} was delivered. - Shop",
		"Hi {{1}}, your order {{2}} was delivered."},
	EventNDR: {"delivery_failed", "1107170000000000005", DemoSender, "delivery_failed", "en",
		"Hi {#var#}, we could not deliver order {#var#}: {#var#}. Reply to reschedule. - Shop",
		"Hi {{1}}, we could not deliver order {{2}}: {{3}}. Reply to tell us when to try again."},
	EventPaymentLink: {"payment_link", "1107170000000000006", DemoSender, "payment_link", "en",
		"Hi {#var#}, pay Rs {#var#} for your order here: {#var#} - Shop",
		"Hi {{1}}, pay ₹{{2}} for your order here: {{3}}"},
	EventCODConfirmation: {"cod_confirm", "1107170000000000007", DemoSender, "cod_confirm", "en",
		"Hi {#var#}, please confirm your cash on delivery order {#var#} of Rs {#var#}: {#var#} - Shop",
		"Hi {{1}}, please confirm your cash on delivery order {{2}} of ₹{{3}}: {{4}}"},
	EventCODOTP: {"cod_otp", "1107170000000000008", DemoSender, "cod_otp", "en",
		"{#var#} is your code to place a cash on delivery order. It expires in {#var#} minutes. - Shop",
		"{{1}} is your code to place a cash on delivery order. It expires in {{2}} minutes."},
}
