// GST (docs/DECISIONS.md "Tax documents"): the store's tax identity, which every invoice and
// credit note is issued under, and the month's GSTR-1 return to download
// as the portal's JSON or one section as CSV.

import { h } from '../dom.js';
import { api, query } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, notice, errorNotice, facts, link } from '../ui.js';
import { formatMoney } from '../money.js';
import { session, currency } from '../session.js';

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
      ])),
    allowed('GET', '/reports/gstr1') ? h('p', {}, link('/gstr1', 'Download the GSTR-1 return')) : null,
  ];
}

const SECTIONS = ['b2b', 'b2cl', 'b2cs', 'cdnr', 'cdnur', 'hsn', 'nil', 'doc_issue'];

// lastMonth is the month before today's, YYYY-MM (the one usually filed).
function lastMonth() {
  const d = new Date();
  d.setDate(1);
  d.setMonth(d.getMonth() - 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

export async function gstr1Page() {
  const month = h('input', { type: 'month', id: 'gstr1-period', value: lastMonth(), required: true });
  const links = h('div', { class: 'actions' });
  const summary = h('div');
  const draw = async () => {
    const period = month.value;
    const base = '/api/v1/admin/reports/gstr1';
    links.replaceChildren(
      h('a', { class: 'button primary', href: base + query({ period }), download: `gstr1-${period}.json` }, 'Download JSON'),
      ...SECTIONS.map((s) => h('a', { class: 'button small', href: base + query({ period, format: 'csv', section: s }),
        download: `gstr1-${period}-${s}.csv` }, `${s} CSV`)));
    try {
      const r = await api('GET', '/reports/gstr1' + query({ period }));
      const count = (list) => (list || []).reduce((n, p) => n + ((p.inv || p.nt || [1]).length), 0);
      summary.replaceChildren(facts([
        ['GSTIN', r.gstin], ['Return period', r.fp],
        ['B2B invoices', String(count(r.b2b))], ['B2CL invoices', String(count(r.b2cl))],
        ['B2CS rows', String((r.b2cs || []).length)], ['Credit notes (registered)', String(count(r.cdnr))],
        ['Credit notes (B2CL)', String((r.cdnur || []).length)],
        ['Documents issued', (r.doc_issue.doc_det || []).map((d) => `${d.doc_typ}: ${d.docs.map((x) => `${x.from} – ${x.to}`).join(', ')}`).join('; ') || 'none'],
      ]));
    } catch (err) {
      summary.replaceChildren(err.status === 409
        ? notice('info', 'No return yet: set the store\'s ', link('/tax', 'tax settings'), ' first.')
        : errorNotice(err));
    }
  };
  month.addEventListener('change', draw);
  await draw();
  return [
    pageHead('GSTR-1'),
    h('p', { class: 'muted' }, 'The month\'s outward supplies in the GST portal\'s layout, from the invoices and credit notes issued in it (India Standard Time).'),
    section('Period', h('div', { class: 'field' }, h('label', { for: 'gstr1-period' }, 'Month'), month), links),
    section('Summary', summary),
  ];
}
