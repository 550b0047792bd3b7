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
//     consecutive serials in commit order, each dated when it takes its
//     serial (migration 00047), so numbers and dates run in one order.
//     Locks are taken after the order's row lock, as every order change
//     does, so they cannot deadlock.
//   - Documents never change (triggers refuse UPDATE and DELETE): they carry
//     their own copy of the supplier, the recipient and every line.
//   - Amounts are the customer's per-unit amounts (money.UnitsShare: a
//     unit of a line is its total divided by its quantity, the first units
//     taking the odd paise, so none is billed above its price). A shipment
//     bills its units from what is left to bill of their line (billedLine:
//     the line less what the invoices of shipments that were not cancelled
//     billed), its last units taking all that is left, total and tax: an
//     order's invoices add up to its lines and shipping exactly, whatever
//     ships, comes back and ships again.
//   - A credit note reduces only what was invoiced and is not yet
//     credited, line by line: a credit note line reduces one invoice line
//     and never by more than is left of it; the piece that empties a line
//     takes exactly what is left of each tax. An order refund credits only
//     what it returns of value still invoiced (creditDue); the shipping and
//     COD fee stay billed while a shipment of the order is live.
//   - After the limit of CGST Act s.34(2) a credit is a financial credit
//     note: the value only, no tax, outside GSTR-1.
package invoice
