// Package invoice issues the GST tax documents of the shop: a tax invoice
// for every fulfilment and a credit note for every refund or cancelled
// shipment of invoiced value, numbers them, renders them (JSON, PDF) and
// reports them for the month (GSTR-1). docs/DECISIONS.md "Tax documents"
// records the choices the law and the API documents leave
// open.
//
// Invariants:
//   - No document is issued until the store's tax identity is set
//     (Settings); the change that would have issued one goes on without it.
//   - A document is issued in the transaction of its cause (the fulfilment,
//     the refund, the fulfilment's cancellation): it exists exactly when its
//     cause committed.
//   - Numbers: one series per GSTIN, document type and financial year (April
//     to March, India Standard Time). A document is written without its
//     serial; a deferred trigger (migration 00030) takes it at commit from
//     an upsert of the series row, whose row lock lasts to the commit's
//     end: a rolled back issue leaves no gap, and concurrent issues take
//     consecutive serials in commit order. Locks are taken after the order's
//     row lock, as every order change does, so they cannot deadlock.
//   - Documents never change (triggers refuse UPDATE and DELETE): they carry
//     their own copy of the supplier, the recipient and every line.
//   - Amounts are the customer's per-unit amounts (the unit of a line is
//     its total divided by its quantity, the last unit taking the
//     remainder), so an order's invoices add up to its lines and shipping
//     exactly, and the tax of the units invoiced so far is the tax of their
//     amount, so the invoices' tax adds up to the lines' tax. A credit note
//     line reduces one invoice line and never by more than is left of it;
//     the piece that empties a line takes exactly what is left of each tax.
package invoice
