// Package gstapi holds the end-to-end tests of e-invoices and e-way bills
// (docs/DECISIONS.md "E-invoices and e-way bills"): the shop driven over
// HTTP, the GST portal simulator (gstsim) as the IRP. The routes
// themselves live with the documents (invoiceapi) and fulfilments.
package gstapi
