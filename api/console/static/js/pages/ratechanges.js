// GST rate changes on a date (docs/DECISIONS.md "GST rate changes on a
// date"): the changes scheduled, applied and withdrawn, a form to schedule
// one for the products of an HSN prefix or for products picked by name,
// and withdrawing one still pending. Two requests: the list, and the names
// of the products the changes pick.

import { h } from '../dom.js';
import { api, ApiError } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, table, badge, button, confirm, errorNotice, link } from '../ui.js';
import { parseDecimal, formatRate } from '../money.js';
import { fmtDay, fmtTime } from '../format.js';
import { sources, names } from '../sources.js';
import { session } from '../session.js';

// istDay is the date in India (where a change takes effect at 00:00)
// offset days from today, YYYY-MM-DD.
function istDay(offset = 0) {
  return new Date(Date.now() + 5.5 * 3600_000 + offset * 86400_000).toISOString().slice(0, 10);
}

// appliesTo names what a change picks: an HSN prefix, or its products.
function appliesTo(c, named) {
  if (c.hsnPrefix) return `Products whose HSN code starts ${c.hsnPrefix}`;
  const ids = c.productIds || [];
  return h('span', {}, ids.map((id, i) => [i ? ', ' : '', named.has(id) ? link('/products/' + id, named.get(id).label) : 'a deleted product']));
}

function describe(c) {
  return `the change to ${formatRate(c.gstRate)} from ${fmtDay(c.effectiveFrom)}`;
}

export async function rateChangesPage({ rerender }) {
  const res = await api('GET', '/tax/rate-changes');
  const named = await names.products(res.data.flatMap((c) => c.productIds || []));
  const status = h('div', { class: 'form-status' });
  const canWithdraw = allowed('DELETE', '/tax/rate-changes/{}');
  const withdraw = (c) => button('Withdraw', async () => {
    if (!(await confirm(`Withdraw ${describe(c)}? The products keep the rate they have.`, 'Withdraw rate change', 'Keep rate change'))) return;
    try {
      await api('DELETE', '/tax/rate-changes/' + encodeURIComponent(c.id));
      session.flash = `Withdrawn: ${describe(c)}.`;
      rerender();
    } catch (err) { status.replaceChildren(errorNotice(err)); }
  }, { kind: 'small danger', attrs: { 'aria-label': `Withdraw ${describe(c)}` } });
  return [
    pageHead('GST rate changes'),
    h('p', { class: 'muted' }, 'A change sets the GST rate of the products it names at 00:00 India Standard Time of its date. Orders placed before keep the rate they were placed at, and their documents too.'),
    status,
    section('Scheduled changes', table([
      { label: 'Status', cell: (c) => badge(c.status) },
      { label: 'Applies to', cell: (c) => appliesTo(c, named) },
      { label: 'New rate', class: 'num', cell: (c) => formatRate(c.gstRate) },
      { label: 'Effective from', cell: (c) => fmtDay(c.effectiveFrom) },
      { label: 'Products changed', class: 'num', cell: (c) => (c.productsChanged === null || c.productsChanged === undefined ? '—' : String(c.productsChanged)) },
      { label: 'Scheduled', cell: (c) => fmtTime(c.createdAt) },
      canWithdraw ? { label: 'Actions', cell: (c) => (c.status === 'pending' ? withdraw(c) : null) } : null,
    ].filter(Boolean), res.data, { empty: 'No rate change is scheduled.', caption: 'GST rate changes' })),
    allowed('POST', '/tax/rate-changes') ? section('Schedule a rate change', scheduleForm(rerender)) : null,
  ];
}

// scheduleForm asks for an HSN prefix or products, the new rate (one of
// the server's rates) and a date after today in India.
function scheduleForm(rerender) {
  const rates = (session.settings.gstRates || []).map((r) => [String(r), formatRate(r)]);
  const tomorrow = istDay(1);
  return form({
    label: 'Schedule a rate change',
    values: { effectiveFrom: tomorrow },
    fields: [
      { name: 'hsnPrefix', label: 'HSN code prefix', maxlength: 8, inputmode: 'numeric',
        help: 'Every product whose HSN code starts with these 2 to 8 digits (61 for all knitted apparel). Or leave it empty and pick products below.' },
      { name: 'productIds', label: 'Products', type: 'picker', multiple: true, source: sources.product, wide: true,
        placeholder: 'Title or SKU', help: 'Instead of an HSN prefix: type part of a title or SKU and pick each product.' },
      { name: 'gstRate', label: 'New GST rate', type: 'select', required: true, options: [['', 'Choose a rate'], ...rates] },
      { name: 'effectiveFrom', label: 'Effective from', type: 'date', required: true, min: tomorrow,
        help: 'The rate applies from 00:00 India Standard Time of this date, which must be after today.' },
    ],
    submit: 'Schedule rate change',
    onSubmit: (v, { key }) => {
      const body = { gstRate: parseDecimal(v.gstRate), effectiveFrom: v.effectiveFrom };
      if (v.hsnPrefix) body.hsnPrefix = v.hsnPrefix;
      if (v.productIds.length) body.productIds = v.productIds;
      if (v.effectiveFrom < tomorrow) {
        // Today would apply at the scheduler's next tick, not on a date.
        return Promise.reject(new ApiError(400, { error: { details: { field: 'effectiveFrom', issue: 'must be after today (India Standard Time)' } } }));
      }
      return api('POST', '/tax/rate-changes', body, { headers: { 'Idempotency-Key': key } });
    },
    done: (c) => { session.flash = `Scheduled: ${describe(c)}.`; rerender(); },
  });
}
