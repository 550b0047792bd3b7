// The tax invoices and credit notes of an order, as the
// order page lists them, each with its PDF. The order's detail carries
// them (taxDocuments), so the section costs no request of its own.

import { h } from './dom.js';
import { allowed } from './perm.js';
import { section, table, badge } from './ui.js';
import { formatMoney, toPaise, fromPaise } from './money.js';
import { fmtTime } from './format.js';

/** orderDocuments is the order's documents section, or null when the role may not read them. */
export function orderDocuments(o) {
  if (!allowed('GET', '/invoices') || !Array.isArray(o.taxDocuments)) return null;
  return section('Tax documents', table([
    { label: 'Number', cell: (d) => d.number },
    { label: 'Type', cell: (d) => badge(d.type) },
    { label: 'Issued', cell: (d) => fmtTime(d.issuedAt) },
    { label: 'Against', cell: (d) => (d.references || []).map((r) => r.number).join(', ') || '—' },
    { label: 'Taxable value', class: 'num', cell: (d) => formatMoney(d.taxableValue, d.currency) },
    { label: 'GST', class: 'num', cell: (d) => formatMoney(fromPaise(toPaise(d.cgstTotal) + toPaise(d.sgstTotal) + toPaise(d.igstTotal)), d.currency) },
    { label: 'Total', class: 'num', cell: (d) => formatMoney(d.total, d.currency) },
    { label: 'PDF', cell: (d) => h('a', { href: `/api/v1/admin/invoices/${encodeURIComponent(d.id)}/pdf`, target: '_blank', rel: 'noopener' }, 'PDF') },
  ], o.taxDocuments, { empty: 'No tax documents: none is issued before the store\'s tax settings are set, or before anything ships.' }));
}
