// Cash on delivery (docs/DECISIONS.md "Cash on delivery and offline payments"):
// the payment settings checkout follows, and couriers' COD remittance files
// uploaded as a job whose row report is shown when it ends.

import { h, replace } from '../dom.js';
import { api, ApiError, referenceList } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, notice, errorNotice, facts, table, jobPanel, link } from '../ui.js';
import { formatMoney, formatRate } from '../money.js';
import { label } from '../format.js';
import { session, currency } from '../session.js';

// How a COD order is confirmed before it ships (internal/cod/confirm.go).
// Every setting is a field of the form: the PUT resets one it does not
// name to its default, which once turned confirmation off on every save.
const CONFIRMATIONS = [['none', 'No confirmation'], ['otp', 'By a code sent to the phone at checkout'], ['link', 'By a link sent after the order']];

export async function paymentSettingsPage({ rerender }) {
  const [s, zones] = await Promise.all([
    api('GET', '/settings/payments'),
    allowed('GET', '/shipping/zones') ? referenceList('/shipping/zones').catch(() => []) : [],
  ]);
  const c = s.cod;
  const cur = currency();
  const zoneName = new Map(zones.map((z) => [z.id, z.name]));
  const canEdit = allowed('PUT', '/settings/payments');
  const fields = [
    { name: 'enabled', label: 'Offer cash on delivery', type: 'checkbox' },
    { name: 'maxOrderAmount', label: `Order limit (${cur}, 0 for none)`, type: 'money', help: 'Compared with the order total: the cart after discounts, shipping and the fee.' },
    { name: 'fee', label: `COD fee (${cur})`, type: 'money', help: 'Added to a COD order; GST-inclusive.' },
    { name: 'feeGstRate', label: 'GST in the fee (%)', type: 'rate' },
    zones.length ? { name: 'zoneIds', label: 'Shipping zones (none ticked: every zone)', type: 'checkboxes', options: zones.map((z) => [z.id, z.name]) } : null,
    { name: 'maxOpenPerCustomer', label: 'Unpaid COD orders a customer may hold', type: 'number', min: 0, max: 1000, help: 'Counted by email and by phone.' },
    { name: 'confirmation', label: 'Customer confirms a COD order', type: 'select', options: CONFIRMATIONS,
      help: 'By link: the order waits in Pending confirmation until the customer answers the message (Customer messages) or staff answer for them.' },
    { name: 'confirmAbove', label: `Confirm orders above (${cur}, 0 for every order)`, type: 'money' },
    { name: 'confirmFirstOrder', label: 'Confirm every first order of a buyer, whatever its total', type: 'checkbox' },
    { name: 'blockedPincodes', label: 'Pincodes without COD', type: 'list', help: 'Separated by commas or spaces.' },
  ];
  return [
    pageHead('Payment settings'),
    c.enabled ? notice('ok', 'Cash on delivery is offered at checkout.') : notice('info', 'Cash on delivery is off: shoppers pay online only.'),
    canEdit
      ? section('Cash on delivery', form({
        label: 'Cash on delivery', fields, values: { ...c, zoneIds: c.zoneIds || [] }, submit: 'Save',
        onSubmit: (v) => api('PUT', '/settings/payments', { cod: { ...v, zoneIds: v.zoneIds || [] } }),
        done: () => { session.flash = 'Payment settings saved.'; rerender(); },
      }))
      : section('Cash on delivery', facts([
        ['Offered', c.enabled ? 'Yes' : 'No'],
        ['Order limit', Number(c.maxOrderAmount) ? formatMoney(c.maxOrderAmount, cur) : 'none'],
        ['Fee', `${formatMoney(c.fee, cur)} (GST ${formatRate(c.feeGstRate)})`],
        ['Zones', (c.zoneIds || []).length ? c.zoneIds.map((id) => zoneName.get(id) || id).join(', ') : 'every zone'],
        ['Unpaid COD orders per customer', String(c.maxOpenPerCustomer)],
        ['Customer confirms', (CONFIRMATIONS.find(([k]) => k === c.confirmation) || [])[1] || c.confirmation],
        ['Pincodes without COD', (c.blockedPincodes || []).join(', ') || 'none'],
      ])),
    allowed('POST', '/payments/cod-remittance') ? h('p', {}, link('/cod-remittance', 'Upload a courier\'s COD remittance')) : null,
  ];
}

// uploadCSV posts the file as multipart; X-Requested-With lets the server
// take it with the session cookie from this script only.
async function uploadCSV(file, key, retried = false) {
  const body = new FormData();
  body.append('file', file);
  const res = await fetch('/api/v1/admin/payments/cod-remittance', { method: 'POST', body, credentials: 'same-origin',
    headers: { 'X-Requested-With': 'XMLHttpRequest', 'Idempotency-Key': key, Accept: 'application/json' } });
  if (res.status === 401 && !retried) {
    await api('GET', '/settings/payments').catch(() => null); // refreshes an expired access cookie
    return uploadCSV(file, key, true);
  }
  let parsed = null;
  try { parsed = await res.json(); } catch { /* not JSON */ }
  if (res.status !== 202) throw new ApiError(res.status, parsed);
  return parsed;
}

function report(job) {
  const r = job.result || { applied: 0, failed: [] };
  return h('div', {},
    notice(r.failed.length ? 'info' : 'ok', `${r.applied} payment(s) recorded; ${r.failed.length} row(s) not applied.`),
    r.failed.length ? table([
      { label: 'Row', class: 'num', cell: (f) => String(f.row) },
      { label: 'Order', cell: (f) => f.orderNumber },
      { label: 'Reason', cell: (f) => label(f.reason) },
    ], r.failed, { caption: 'Rows not applied' }) : null);
}

export async function codRemittancePage() {
  const file = h('input', { type: 'file', id: 'remittance-file', accept: '.csv,text/csv', required: true });
  const status = h('div', { class: 'form-status' });
  const jobs = h('div');
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Upload');
  const el = h('form', { class: 'form', 'aria-label': 'COD remittance upload' },
    status,
    h('div', { class: 'field' }, h('label', { for: 'remittance-file' }, 'Remittance file (CSV)'), file,
      h('p', { class: 'help' }, 'A header row naming orderNumber, amount (rupees) and reference, then one row per order; at most 5000 rows.')),
    h('div', { class: 'actions' }, submit));
  el.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!file.files.length) {
      replace(status, notice('error', 'Choose a CSV file first.'));
      return;
    }
    submit.disabled = true;
    try {
      const acc = await uploadCSV(file.files[0], crypto.randomUUID());
      replace(status);
      jobs.prepend(jobPanel(acc.jobId, `Remittance ${file.files[0].name}`, { done: report }));
      el.reset();
    } catch (err) {
      replace(status, errorNotice(err));
    } finally {
      submit.disabled = false;
    }
  });
  return [
    pageHead('COD remittance'),
    h('p', { class: 'muted' }, 'Each row pays its cash on delivery order when the amount is what the order owes. Rows for unknown, online, already paid or cancelled orders, or with another amount, are reported and record nothing; a file uploaded twice pays nothing twice.'),
    section('Upload', el),
    jobs,
  ];
}
