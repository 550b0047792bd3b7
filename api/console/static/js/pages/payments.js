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

// uploadCSV posts the file as multipart, with the courier's name and the
// column mapping when given; X-Requested-With lets the server take it with
// the session cookie from this script only.
async function uploadCSV(file, key, extra = {}, retried = false) {
  const body = new FormData();
  body.append('file', file);
  for (const [k, v] of Object.entries(extra)) body.append(k, v);
  const res = await fetch('/api/v1/admin/payments/cod-remittance', { method: 'POST', body, credentials: 'same-origin',
    headers: { 'X-Requested-With': 'XMLHttpRequest', 'Idempotency-Key': key, Accept: 'application/json' } });
  if (res.status === 401 && !retried) {
    await api('GET', '/settings/payments').catch(() => null); // refreshes an expired access cookie
    return uploadCSV(file, key, extra, true);
  }
  let parsed = null;
  try { parsed = await res.json(); } catch { /* not JSON */ }
  if (res.status !== 202) throw new ApiError(res.status, parsed);
  return parsed;
}

// OUTCOMES say what became of a row.
const OUTCOMES = { applied: 'Payment recorded', failed: 'Not applied' };

// report is the job's result: every row of the file with its outcome (the
// reason when it recorded nothing).
function report(job, cur) {
  const r = job.result || { applied: 0, failed: [], rows: [] };
  const failed = (r.failed || []).length;
  const rows = r.rows || [];
  return h('div', {},
    notice(failed ? 'info' : 'ok', `${r.applied} ${r.applied === 1 ? 'payment' : 'payments'} recorded; ${failed} ${failed === 1 ? 'row' : 'rows'} not applied.`),
    rows.length ? table([
      { label: 'Row', class: 'num', cell: (x) => String(x.row) },
      { label: 'Order', cell: (x) => x.orderNumber },
      { label: 'Amount', class: 'num', cell: (x) => formatMoney(x.amount, cur) },
      { label: 'Reference (UTR)', cell: (x) => x.reference || '—' },
      { label: 'Outcome', cell: (x) => h('span', { class: ['outcome', `outcome-${x.outcome}`] }, OUTCOMES[x.outcome] || label(x.outcome),
        x.reason ? h('span', { class: 'muted' }, ` (${label(x.reason).toLowerCase()})`) : null) },
    ], rows, { caption: 'Rows of the file' })
      : failed ? table([
        { label: 'Row', class: 'num', cell: (f) => String(f.row) },
        { label: 'Order', cell: (f) => f.orderNumber },
        { label: 'Reason', cell: (f) => label(f.reason) },
      ], r.failed, { caption: 'Rows not applied' }) : null);
}

// field is a labelled control of the upload form.
function field(id, text, control, help) {
  control.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, text), control, help ? h('p', { class: 'help' }, help) : null);
}

// COLUMNS are the mapping's members, as the upload names them.
const COLUMNS = [['orderNumber', 'Column with the order number', 'Order ID'], ['amount', 'Column with the amount', 'COD Amount'],
  ['reference', 'Column with the UTR (optional)', 'UTR No']];

export async function codRemittancePage() {
  const saved = allowed('GET', '/payments/cod-remittance/mappings')
    ? await api('GET', '/payments/cod-remittance/mappings').then((r) => r.data || []).catch(() => []) : [];
  const savedOf = (name) => saved.find((m) => m.courier.toLowerCase() === name.trim().toLowerCase());
  const cur = currency();
  const file = h('input', { type: 'file', accept: '.csv,text/csv', required: true });
  const courier = h('input', { type: 'text', name: 'courier', maxlength: 60, list: 'remittance-couriers', autocomplete: 'off' });
  const columns = Object.fromEntries(COLUMNS.map(([k, , example]) => [k, h('input', { type: 'text', name: k, maxlength: 100, placeholder: example })]));
  const status = h('div', { class: 'form-status' });
  const jobs = h('div');
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Upload');
  // A courier's saved mapping fills the columns when its name is typed.
  const prefill = () => {
    const m = savedOf(courier.value);
    if (m) for (const [k] of COLUMNS) columns[k].value = m.mapping[k] || '';
  };
  courier.addEventListener('input', prefill);
  courier.addEventListener('change', prefill);
  const el = h('form', { class: 'form', 'aria-label': 'COD remittance upload' },
    status,
    field('remittance-file', 'Remittance file (CSV)', file,
      'A header row naming its columns, then one row per order; at most 5000 rows. Amounts may be written as couriers write them (1,849.00).'),
    field('remittance-courier', 'Courier', courier, saved.length
      ? `Saved column mappings: ${saved.map((m) => m.courier).join(', ')}. A courier's name fills in its columns.`
      : 'Name the courier to keep the columns below for its next file.'),
    h('datalist', { id: 'remittance-couriers' }, saved.map((m) => h('option', { value: m.courier }))),
    h('fieldset', { class: 'mapping' }, h('legend', {}, 'Columns of the file'),
      h('p', { class: 'help' }, 'Leave empty for our own columns (orderNumber, amount, reference).'),
      COLUMNS.map(([k, text]) => field(`remittance-${k}`, text, columns[k]))),
    h('div', { class: 'actions' }, submit));
  el.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!file.files.length) {
      replace(status, notice('error', 'Choose a CSV file first.'));
      return;
    }
    const extra = {};
    if (courier.value.trim()) extra.courier = courier.value.trim();
    const mapping = Object.fromEntries(COLUMNS.map(([k]) => [k, columns[k].value.trim()]));
    if (mapping.orderNumber || mapping.amount) {
      if (!mapping.orderNumber || !mapping.amount) {
        replace(status, notice('error', 'Name both the order number\'s and the amount\'s columns, or neither.'));
        return;
      }
      extra.mapping = JSON.stringify(mapping);
    }
    submit.disabled = true;
    try {
      const name = file.files[0].name;
      const acc = await uploadCSV(file.files[0], crypto.randomUUID(), extra);
      replace(status);
      jobs.prepend(jobPanel(acc.jobId, `Remittance ${name}${extra.courier ? ` (${extra.courier})` : ''}`, { done: (job) => report(job, cur) }));
      file.value = '';
    } catch (err) {
      replace(status, errorNotice(err));
    } finally {
      submit.disabled = false;
    }
  });
  return [
    pageHead('COD remittance'),
    h('p', { class: 'muted' }, 'Each row pays its cash on delivery order when the amount is what the order owes, and the order keeps the row\'s UTR. Rows for unknown, online, already paid or cancelled orders, or with another amount, are reported and record nothing; a file uploaded twice pays nothing twice.'),
    section('Upload', el),
    jobs,
  ];
}
