// Products list (search by title, description or SKU; status, category;
// paged) with each product's thumbnail, stock and category, bulk publish
// and archive of the selected products, and the new-product form. One
// request, and the categories (kept for a minute).

import { h } from '../dom.js';
import { api, query as qs, referenceList, keyedSender } from '../api.js';
import { form, filters } from '../forms.js';
import { allowed } from '../perm.js';
import { setQuery, navigate } from '../router.js';
import { pageHead, table, link, linkButton, pager, badge, section, button, confirm, notice, errorNotice } from '../ui.js';
import { formatMoney, formatRate } from '../money.js';
import { fmtTime, fmtDay, label } from '../format.js';
import { session, currency } from '../session.js';
import { thumbImage } from '../media.js';

/** categoryOptions lists categories for a select, with a leading blank choice. */
export async function categoryOptions(blank = 'None') {
  return [['', blank], ...(await referenceList('/categories')).map((c) => [c.id, c.name])];
}

export async function productsPage({ query, rerender }) {
  const f = { search: query.get('search') || '', status: query.get('status') || '', categoryId: query.get('categoryId') || '',
    missingHsn: query.get('missingHsn') === 'true' ? 'true' : '' };
  const page = query.get('page') || '1';
  const [res, cats] = await Promise.all([api('GET', '/products' + qs({ ...f, page, limit: 20 })), categoryOptions('Any category')]);
  const catName = new Map(cats);
  const status = h('div', { class: 'form-status' });
  const selected = new Set();
  const canBulk = allowed('POST', '/products/bulk-status');
  const keys = keyedSender();
  const bulk = (to, verb) => button(`${verb} selected`, async () => {
    const chosen = res.data.filter((p) => selected.has(p.id));
    if (!chosen.length) {
      status.replaceChildren(notice('info', 'Select the products first.'));
      return;
    }
    const what = chosen.length === 1 ? chosen[0].title : `${chosen.length} products`;
    const yes = `${verb} ${chosen.length === 1 ? 'product' : `${chosen.length} products`}`;
    if (!(await confirm(`${verb} ${what}? ${to === 'active' ? 'They show on the storefront.' : 'They leave the storefront.'}`, yes, 'Keep as they are', to === 'active' ? 'primary' : 'danger'))) return;
    try {
      const r = await keys.send((key) => api('POST', '/products/bulk-status', { productIds: chosen.map((p) => p.id), status: to }, { headers: { 'Idempotency-Key': key } }));
      const done = `${r.updated.length} ${r.updated.length === 1 ? 'product' : 'products'} ${to === 'active' ? 'published' : 'archived'}.`;
      session.flash = r.skipped.length
        ? `${done} Not changed: ${r.skipped.map((x) => `${x.title} (${label(x.status).toLowerCase()}: ${to === 'active' ? 'move it to draft first' : x.reason})`).join('; ')}.`
        : done;
      rerender();
    } catch (err) { status.replaceChildren(errorNotice(err)); }
  }, { kind: to === 'active' ? 'primary' : 'danger' });
  const choose = (p) => {
    const box = h('input', { type: 'checkbox', name: `select-${p.id}`, 'aria-label': `Select ${p.title}` });
    box.addEventListener('change', () => (box.checked ? selected.add(p.id) : selected.delete(p.id)));
    return box;
  };
  return [
    pageHead('Products', allowed('POST', '/products') ? linkButton('/products/new', 'New product', 'primary') : null),
    filters({
      label: 'Find products',
      values: f,
      fields: [
        { name: 'search', label: 'Search', type: 'search', help: 'Matches title, description and SKU.' },
        { name: 'status', label: 'Status', type: 'select', options: [['', 'Any status'], ...(session.settings.productStatuses || []).map((s) => [s, label(s)])] },
        { name: 'categoryId', label: 'Category', type: 'select', options: cats },
        // Active products without the HSN code their tax invoices need.
        { name: 'missingHsn', label: 'Missing HSN code', type: 'checkbox' },
      ],
      submit: 'Search',
      onSubmit: async (v) => setQuery({ ...v, missingHsn: v.missingHsn ? 'true' : '' }),
      done: () => {},
    }),
    canBulk ? h('div', { class: 'toolbar' }, bulk('active', 'Publish'), bulk('archived', 'Archive')) : null,
    status,
    table([
      canBulk ? { label: 'Select', cell: choose } : null,
      { label: 'Product', cell: (p) => h('span', { class: 'with-thumb' }, thumbImage(p.thumbnail), link('/products/' + p.id, p.title)) },
      { label: 'Status', cell: (p) => badge(p.status) },
      { label: 'Category', cell: (p) => (p.categoryId ? catName.get(p.categoryId) || '—' : '—') },
      { label: 'Stock', class: 'num', cell: (p) => stock(p) },
      { label: 'Price', class: 'num', cell: (p) => formatMoney(p.price, currency()) },
      { label: 'GST', cell: gstCell },
      { label: 'Updated', cell: (p) => fmtTime(p.updatedAt) },
    ].filter(Boolean), res.data, { empty: 'No products match.', caption: 'Products' }),
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), 'products'),
  ];
}

// stock shows what a product can sell and has on hand, across its variants.
function stock(p) {
  if (!p.variantCount) return h('span', { class: 'muted' }, 'No variants');
  return h('span', { class: p.available === 0 ? 'out-of-stock' : '' }, `${p.available} available`,
    h('br'), h('span', { class: 'muted' }, `${p.onHand} on hand · ${p.variantCount} ${p.variantCount === 1 ? 'variant' : 'variants'}`));
}

// gstCell shows a product's GST rate and HSN code, and the rate a
// scheduled change will give it.
function gstCell(p) {
  return h('span', {}, formatRate(p.gstRate), ' ', h('span', { class: 'muted' }, p.hsnCode ? `HSN ${p.hsnCode}` : 'no HSN code'),
    p.scheduledGstRate ? [h('br'), h('span', { class: 'muted scheduled-rate' }, scheduledRate(p.scheduledGstRate))] : null);
}

/** scheduledRate describes a product's scheduledGstRate: "5% from 1 Jan 2027". */
export function scheduledRate(s) {
  return `${formatRate(s.rate)} from ${fmtDay(s.effectiveFrom)}`;
}

// unitOptions are the GST unit quantity codes, as the server lists them,
// and the product's own when the list lacks it (a service's NA): a select
// without it would change the unit on the next save.
function unitOptions(current) {
  const units = (session.settings.units || []).map((u) => [u.code, `${u.code} (${u.name.toLowerCase()})`]);
  return current && !units.some(([code]) => code === current) ? [[current, current], ...units] : units;
}

/** productFields are the product form's fields (shared by create and edit);
 * scheduled is the product's scheduledGstRate, if any, and unit its unit. */
export function productFields(cats, { canPrice = true, scheduled = null, unit = '' } = {}) {
  return [
    { name: 'title', label: 'Title', required: true, maxlength: 255, wide: true },
    { name: 'slug', label: 'Slug', help: 'Left empty, it is made from the title.', maxlength: 255 },
    { name: 'status', label: 'Status', type: 'select', options: (session.settings.productStatuses || []).map((s) => [s, label(s)]) },
    { name: 'price', label: `Price (${currency()}, GST included)`, type: 'money', required: true, disabled: !canPrice,
      help: canPrice ? null : 'Changing a price needs the pricing permission.' },
    { name: 'gstRate', label: 'GST rate (%)', type: 'rate',
      help: scheduled ? `Changes to ${scheduledRate(scheduled)} (a scheduled GST rate change).` : null },
    { name: 'hsnCode', label: 'HSN code', maxlength: 20, inputmode: 'numeric',
      help: 'An active product needs one: 4, 6 or 8 digits (6 or 8 once tax settings say the turnover is above ₹5 crore); a service\'s SAC starts 99.' },
    { name: 'unit', label: 'Unit (UQC)', type: 'select', options: unitOptions(unit), help: 'The unit invoices and GSTR-1 state its quantity in.' },
    { name: 'cessRate', label: 'Compensation cess (%)', type: 'rate', help: 'Only for goods that carry cess (tobacco, some drinks and vehicles); 0 for the rest.' },
    { name: 'categoryId', label: 'Category', type: 'select', options: cats, nullable: true },
    { name: 'description', label: 'Description', type: 'textarea', rows: 5, wide: true },
  ];
}

export async function newProductPage() {
  const cats = await categoryOptions();
  return [
    pageHead('New product'),
    section(null, form({
      label: 'New product',
      values: { status: 'draft', gstRate: '18', unit: 'NOS', cessRate: '0' },
      fields: productFields(cats),
      submit: 'Create product',
      onSubmit: (v) => api('POST', '/products', v),
      done: (p) => {
        session.flash = `Created ${p.title}. Add its variants and stock below.`;
        navigate('/products/' + p.id);
      },
    })),
  ];
}

