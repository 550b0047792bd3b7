// GST (docs/DECISIONS.md "Tax documents"): the store's tax identity, which every invoice and
// credit note is issued under, and the month's or quarter's GSTR-1 return to
// download as the portal's JSON, the offline tool's workbook or one sheet as CSV.

import { h } from '../dom.js';
import { api, query, referenceList } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, notice, errorNotice, facts, link, table, badge } from '../ui.js';
import { fmtTime } from '../format.js';
import { formatMoney } from '../money.js';
import { session, currency } from '../session.js';
import { signaturePanel } from '../signatureui.js';
import { valueRulesSection } from './valuerules.js';

const ADDRESS = ['line1', 'line2', 'city', 'state', 'pincode'];

export async function taxSettingsPage({ rerender }) {
  const s = await api('GET', '/settings/tax');
  const canEdit = allowed('PUT', '/settings/tax');
  const values = { ...s };
  for (const k of ADDRESS) values['address.' + k] = (s.address || {})[k] || '';
  const fields = [
    { name: 'legalName', label: 'Legal name (as registered for GST)', required: true, maxlength: 200 },
    { name: 'tradeName', label: 'Trade name', maxlength: 200 },
    { name: 'gstin', label: 'GSTIN', required: true, maxlength: 15, help: 'Checked in full: pattern, check character, and its state code against the state below.' },
    { name: 'address.line1', label: 'Address', required: true, maxlength: 200, wide: true },
    { name: 'address.line2', label: 'Address, line 2', maxlength: 200, wide: true },
    { name: 'address.city', label: 'City', required: true, maxlength: 100 },
    { name: 'address.state', label: 'State', type: 'select', required: true, options: ['', ...(session.settings.states || [])] },
    { name: 'address.pincode', label: 'PIN code', required: true, maxlength: 6, pattern: '[1-9][0-9]{5}' },
    { name: 'invoicePrefix', label: 'Invoice number prefix', maxlength: 5, help: 'Numbers read PREFIX/26-27/000123 (16 characters at most).' },
    { name: 'creditNotePrefix', label: 'Credit note number prefix', maxlength: 5 },
    { name: 'b2clLimit', label: `B2CL limit (${currency()})`, type: 'money', help: 'Inter-state invoices to unregistered buyers above it are reported one by one (GSTR-1 b2cl).' },
    { name: 'turnoverAbove5Cr', label: 'Aggregate turnover above ₹5 crore last financial year', type: 'checkbox', wide: true,
      help: 'Active goods then need an HSN code of 6 or 8 digits (4 is enough below it).' },
  ];
  return [
    pageHead('Tax settings'),
    s.configured
      ? notice('ok', 'Tax invoices and credit notes are issued under this identity. Issued documents never change.')
      : notice('info', 'Not set: fulfilments ship without a tax invoice until the identity is saved.'),
    canEdit
      ? section('GST identity', form({
        label: 'GST identity', fields, values, submit: 'Save',
        onSubmit: (v) => {
          const body = { address: {} };
          for (const [k, val] of Object.entries(v)) {
            if (k.startsWith('address.')) body.address[k.slice(8)] = val === undefined ? '' : val;
            else if (val !== undefined) body[k] = val;
          }
          return api('PUT', '/settings/tax', body);
        },
        done: () => { session.flash = 'Tax settings saved.'; rerender(); },
      }))
      : section('GST identity', facts([
        ['Legal name', s.legalName || '—'], ['Trade name', s.tradeName || '—'], ['GSTIN', s.gstin || '—'],
        ['Address', ADDRESS.map((k) => (s.address || {})[k]).filter(Boolean).join(', ') || '—'],
        ['Invoice prefix', s.invoicePrefix], ['Credit note prefix', s.creditNotePrefix],
        ['B2CL limit', formatMoney(s.b2clLimit, currency())],
        ['Turnover above ₹5 crore', s.turnoverAbove5Cr ? 'Yes' : 'No'],
      ])),
    section('Authorised signatory\'s signature', signaturePanel(s, canEdit, rerender)),
    allowed('GET', '/tax/value-rules') ? await valueRulesSection({ rerender }) : null,
    allowed('GET', '/reports/gstr1') ? h('p', {}, link('/gstr1', 'Download the GSTR-1 return')) : null,
    allowed('GET', '/tax/rate-changes') ? h('p', {}, link('/rate-changes', 'GST rate changes scheduled for products')) : null,
  ];
}

// sheetsOf are the offline tool's sheets of a return whose last month is
// last (YYYY-MM): the HSN summary is split from the May 2025 period.
function sheetsOf(last) {
  const hsn = last >= '2025-05' ? ['hsn(b2b)', 'hsn(b2c)'] : ['hsn'];
  return ['b2b,sez,de', 'b2cl', 'b2cs', 'cdnr', 'cdnur', 'exemp', ...hsn, 'docs'];
}

// lastMonth is the month before today's, YYYY-MM (the one usually filed).
function lastMonth() {
  const d = new Date();
  d.setDate(1);
  d.setMonth(d.getMonth() - 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

// QUARTERS are the financial year's quarters by their first and last month.
const QUARTERS = [['04', '06', 'April – June'], ['07', '09', 'July – September'], ['10', '12', 'October – December'],
  ['01', '03', 'January – March']];

// quarterPeriods lists the quarters from the current financial year's back
// to GST's first (July 2017), newest first, as API periods.
function quarterPeriods() {
  const now = new Date();
  const fy = now.getMonth() >= 3 ? now.getFullYear() : now.getFullYear() - 1;
  const out = [];
  for (let y = fy; y >= 2017; y--) {
    for (const [from, to, name] of [...QUARTERS].reverse()) {
      const year = from === '01' ? y + 1 : y;
      const period = `${year}-${from}..${year}-${to}`;
      if (period < '2017-07' || `${year}-${from}` > lastMonth()) continue;
      out.push([period, `${name} ${year}`]);
    }
  }
  return out;
}

// locationGSTINs are the registrations of the locations that have their
// own, as [gstin, who] pairs. The store's own comes from the return itself
// (GSTR-1 without gstin= is the store's and names it), which keeps the
// page within its three requests: the locations (kept a minute), the
// return and its documents.
async function locationGSTINs() {
  const locations = allowed('GET', '/locations') ? await referenceList('/locations').catch(() => []) : [];
  const out = new Map();
  for (const l of locations) {
    if (!l.gstin) continue;
    out.set(l.gstin, out.has(l.gstin) ? `${out.get(l.gstin)}, ${l.name}` : `${l.name} (${l.address?.state || ''})`);
  }
  return [...out];
}

// monthDays is the first and last day of month YYYY-MM (or of a quarter's
// span YYYY-MM..YYYY-MM), for the documents list's from and to.
function monthDays(period) {
  const [first, last] = [period.split('..')[0], period.split('..').pop()];
  const [y, m] = last.split('-').map(Number);
  const end = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${first}-01`, to: `${last}-${String(end).padStart(2, '0')}` };
}

export async function gstr1Page() {
  const gstins = await locationGSTINs();
  const filing = h('select', { id: 'gstr1-filing' },
    h('option', { value: 'month' }, 'Monthly'), h('option', { value: 'quarter' }, 'Quarterly (QRMP)'));
  const month = h('input', { type: 'month', id: 'gstr1-period', value: lastMonth(), min: '2017-07', required: true });
  const quarter = h('select', { id: 'gstr1-quarter' }, ...quarterPeriods().map(([v, name]) => h('option', { value: v }, name)));
  // The registration whose return it is: one return per GSTIN.
  // The store's option has no value until a return names the store's GSTIN.
  const storeOption = h('option', { value: '' }, 'The store\'s GSTIN');
  const gstin = h('select', { id: 'gstr1-gstin', name: 'gstin' }, storeOption,
    gstins.map(([g, who]) => h('option', { value: g }, `${g} · ${who}`)));
  const learnStore = (g) => {
    if (!g || storeOption.value) return;
    const twin = [...gstin.options].find((o) => o !== storeOption && o.value === g);
    storeOption.value = g;
    storeOption.textContent = `${g} · the store${twin ? `, ${twin.textContent.split(' · ')[1]}` : ''}`;
    if (twin) twin.remove();
  };
  const periodField = h('div', { class: 'field' });
  const periodError = h('p', { class: 'field-error', id: 'gstr1-period-error', role: 'alert' });
  const links = h('div', { class: 'actions' });
  const summary = h('div');
  const documents = h('div');
  // The period's control is put in place only when the filing changes:
  // moving the month field on every change took the focus from a person
  // typing it, so the rest of a year typed digit by digit went nowhere and
  // the field kept a month the page had already answered for.
  const showPeriod = () => {
    const quarterly = filing.value === 'quarter';
    periodField.replaceChildren(
      h('label', { for: quarterly ? 'gstr1-quarter' : 'gstr1-period' }, quarterly ? 'Quarter' : 'Month'),
      quarterly ? quarter : month, quarterly ? null : periodError);
  };
  showPeriod();
  filing.addEventListener('change', showPeriod);
  // Each draw numbers itself before anything else: an answer to an earlier
  // period or GSTIN that arrives late, or one asked before the field was
  // emptied or made invalid, never overwrites what the fields hold now. A
  // draw of what was last asked (input and change of one edit) is skipped.
  let drawn = 0;
  let asked = '';
  const draw = async () => {
    const quarterly = filing.value === 'quarter';
    const key = [filing.value, quarterly ? quarter.value : month.value, gstin.value].join('|');
    if (key === asked) return;
    asked = key;
    const mine = ++drawn;
    const period = quarterly ? quarter.value : month.value;
    periodError.textContent = '';
    month.removeAttribute('aria-invalid');
    if (!period || (!quarterly && !month.checkValidity())) {
      if (!quarterly && month.value) {
        periodError.textContent = 'Pick a month from July 2017 on.';
        month.setAttribute('aria-invalid', 'true');
      }
      links.replaceChildren();
      summary.replaceChildren();
      documents.replaceChildren();
      return;
    }
    const last = period.split('..').pop();
    const file = period.replace('..', '_');
    const g = gstin.value;
    const base = '/api/v1/admin/reports/gstr1';
    const tag = g ? `${g}-${file}` : file;
    links.replaceChildren(
      h('a', { class: 'button primary', href: base + query({ period, gstin: g }), download: `gstr1-${tag}.json` }, 'Download JSON'),
      h('a', { class: 'button', href: base + query({ period, gstin: g, format: 'xlsx' }), download: `gstr1-${tag}.xlsx` },
        'Download Excel workbook'),
      ...sheetsOf(last).map((s) => h('a', { class: 'button small', href: base + query({ period, gstin: g, format: 'csv', section: s }),
        download: `gstr1-${tag}-${s.replace(/[(),]/g, '-')}.csv` }, `${s} CSV`)));
    try {
      const [r, docs] = await Promise.all([
        api('GET', '/reports/gstr1' + query({ period, gstin: g })),
        allowed('GET', '/invoices') ? api('GET', '/invoices' + query({ ...monthDays(period), gstin: g, limit: 50 })) : null,
      ]);
      if (!g) learnStore(r.gstin);
      if (mine !== drawn) return;
      const count = (list) => (list || []).reduce((n, p) => n + ((p.inv || p.nt || [1]).length), 0);
      summary.replaceChildren(facts([
        ['GSTIN', r.gstin], ['Return period', r.fp],
        ['B2B invoices', String(count(r.b2b))], ['B2CL invoices', String(count(r.b2cl))],
        ['B2CS rows', String((r.b2cs || []).length)], ['Credit notes (registered)', String(count(r.cdnr))],
        ['Credit notes (B2CL)', String((r.cdnur || []).length)],
        ['Documents issued', (r.doc_issue.doc_det || []).map((d) => `${d.doc_typ}: ${d.docs.map((x) => `${x.from} – ${x.to}`).join(', ')}`).join('; ') || 'none'],
      ]));
      documents.replaceChildren(docs ? documentsTable(docs) : h('p', { class: 'muted' }, 'Your role does not list documents.'));
    } catch (err) {
      if (mine !== drawn) return;
      documents.replaceChildren();
      summary.replaceChildren(err.status === 409
        ? notice('info', 'No return yet: set the store\'s ', link('/tax', 'tax settings'), ' first.')
        : errorNotice(err));
    }
  };
  for (const el of [filing, month, quarter, gstin]) el.addEventListener('change', draw);
  month.addEventListener('input', draw);
  await draw();
  return [
    pageHead('GSTR-1'),
    h('p', { class: 'muted' }, 'The outward supplies of a month, or of a quarter for quarterly (QRMP) filers, in the GST portal\'s layout, from the invoices and credit notes issued in it (India Standard Time), one return per GSTIN. The Excel workbook imports into the GST offline tool.'),
    section('Period',
      h('div', { class: 'field' }, h('label', { for: 'gstr1-gstin' }, 'GSTIN'), gstin),
      h('div', { class: 'field' }, h('label', { for: 'gstr1-filing' }, 'Filing'), filing), periodField, links),
    section('Summary', summary),
    section('Documents', documents),
  ];
}

// documentsTable lists a period's documents with the registration each was
// issued under: two invoices numbered alike under two GSTINs are two
// series, not a duplicate.
function documentsTable(res) {
  const rows = res.data || [];
  const more = res.pagination && res.pagination.total > rows.length ? res.pagination.total - rows.length : 0;
  return h('div', {},
    table([
      { label: 'Number', cell: (d) => (d.orderId ? link('/orders/' + d.orderId, d.number) : d.number) },
      { label: 'GSTIN', cell: (d) => h('span', { class: 'gstin' }, (d.supplier && d.supplier.gstin) || '—') },
      { label: 'Type', cell: (d) => badge(d.type) },
      { label: 'Issued', cell: (d) => fmtTime(d.issuedAt) },
      { label: 'Place of supply', cell: (d) => (d.placeOfSupply ? d.placeOfSupply.state : '—') },
      { label: 'Total', class: 'num', cell: (d) => formatMoney(d.total, d.currency) },
      { label: 'PDF', cell: (d) => h('a', { href: `/api/v1/admin/invoices/${encodeURIComponent(d.id)}/pdf`, target: '_blank', rel: 'noopener', 'aria-label': `PDF of ${d.number}` }, 'PDF') },
    ], rows, { empty: 'No documents issued in this period under this GSTIN.', caption: 'Documents of the period' }),
    more ? h('p', { class: 'muted' }, `${more} more in the return's files.`) : null);
}
