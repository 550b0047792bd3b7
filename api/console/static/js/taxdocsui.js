// The tax invoices and credit notes of an order, as the
// order page lists them, each with its PDF and, when the store e-invoices,
// its report to the IRP (status, IRN, the IRP's error and a retry). The
// order's detail carries them (taxDocuments), so the section costs no
// request of its own.

import { h } from './dom.js';
import { api, keyedSender } from './api.js';
import { allowed } from './perm.js';
import { section, table, badge, button, errorNotice } from './ui.js';
import { formatMoney, toPaise, fromPaise } from './money.js';
import { fmtTime } from './format.js';
import { session } from './session.js';

/** orderDocuments is the order's documents section, or null when the role may not read them. */
export function orderDocuments(o, rerender) {
  if (!allowed('GET', '/invoices') || !Array.isArray(o.taxDocuments)) return null;
  const status = h('div', { class: 'form-status' });
  const keys = keyedSender();
  const retry = (d) => async () => {
    try {
      await keys.send((key) => api('POST', `/invoices/${encodeURIComponent(d.id)}/e-invoice/retry`, undefined, { headers: { 'Idempotency-Key': key } }));
      session.flash = `${d.number} is sent to the IRP again.`;
      if (rerender) rerender();
    } catch (err) {
      status.replaceChildren(errorNotice(err));
    }
  };
  const eInvoiced = o.taxDocuments.some((d) => d.eInvoice);
  return section('Tax documents', status, table([
    { label: 'Number', cell: (d) => d.number },
    { label: 'Type', cell: (d) => badge(d.type) },
    { label: 'Issued', cell: (d) => fmtTime(d.issuedAt) },
    { label: 'Against', cell: (d) => (d.references || []).map((r) => r.number).join(', ') || '—' },
    { label: 'Taxable value', class: 'num', cell: (d) => formatMoney(d.taxableValue, d.currency) },
    { label: 'GST', class: 'num', cell: (d) => formatMoney(fromPaise(toPaise(d.cgstTotal) + toPaise(d.sgstTotal) + toPaise(d.igstTotal)), d.currency) },
    { label: 'Total', class: 'num', cell: (d) => formatMoney(d.total, d.currency) },
    eInvoiced ? { label: 'e-Invoice', cell: (d) => eInvoiceCell(d, retry) } : null,
    { label: 'PDF', cell: (d) => h('a', { href: `/api/v1/admin/invoices/${encodeURIComponent(d.id)}/pdf`, target: '_blank', rel: 'noopener' }, 'PDF') },
  ].filter(Boolean), o.taxDocuments, { empty: 'No tax documents: none is issued before the store\'s tax settings are set, or before anything ships.' }));
}

// eInvoiceCell is a document's report to the IRP: its status, the IRN
// (shortened; the whole in its title) or the IRP's error with a retry.
function eInvoiceCell(d, retry) {
  const e = d.eInvoice;
  if (!e) return '—';
  return h('span', { class: 'einvoice' }, badge(e.status),
    e.irn ? h('span', { class: 'muted', title: `IRN ${e.irn}` }, ` IRN ${e.irn.slice(0, 12)}…`) : null,
    e.ackNo ? h('span', { class: 'muted' }, ` Ack ${e.ackNo}`) : null,
    e.error ? h('span', { class: 'error', role: 'note' }, ' ' + e.error) : null,
    e.status === 'failed' && allowed('POST', '/invoices/{}/e-invoice/retry')
      ? button('Retry', retry(d), { kind: 'small', attrs: { 'aria-label': `Send ${d.number} to the IRP again` } }) : null);
}
