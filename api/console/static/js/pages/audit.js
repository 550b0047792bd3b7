// The audit log, with its filters (super_admin): the admin and the entity
// are picked by name, and each entry names its admin and, where the console
// can find it, its entity (a product by title, an order by number, a
// variant by product and SKU, an admin by name).

import { h } from '../dom.js';
import { api, query as qs, ApiError } from '../api.js';
import { filters } from '../forms.js';
import { setQuery } from '../router.js';
import { pageHead, table, pager, errorNotice, link } from '../ui.js';
import { fmtTime, label } from '../format.js';
import { sources, names } from '../sources.js';

const KEYS = ['action', 'adminId', 'entityId', 'dateFrom', 'dateTo'];

// KINDS maps an action's entity (its prefix) to how it is named and where
// it is shown.
const KINDS = {
  product: { lookup: 'products', page: (id) => '/products/' + id },
  variant: { lookup: 'variants', page: (id, v) => (v ? '/products/' + v.variant.productId : null) },
  inventory: { lookup: 'variants', page: (id, v) => (v ? '/products/' + v.variant.productId : null) },
  order: { lookup: 'orders', page: (id) => '/orders/' + id },
  return: { page: (id) => '/returns/' + id },
  customer: { page: (id) => '/customers/' + id },
  admin_user: { lookup: 'admins' },
  bundle: { page: (id) => '/bundles/' + id },
  collection: { page: (id) => '/collections/' + id },
  webhook: { page: (id) => '/webhooks/' + id },
};

// entities are searched by kind at once: an order number, a product title or
// SKU, a customer's name or email.
const entitySource = {
  search: async (term) => {
    const [orders, products, customers] = await Promise.all([
      sources.order.search(term).catch(() => []), sources.product.search(term).catch(() => []), sources.customer.search(term).catch(() => []),
    ]);
    return [
      ...orders.map((o) => ({ ...o, hint: `Order · ${o.hint}` })),
      ...products.map((p) => ({ ...p, hint: `Product · ${p.hint}` })),
      ...customers.map((c) => ({ ...c, hint: `Customer${c.hint ? ' · ' + c.hint : ''}` })),
    ];
  },
};

// chosenEntity names the entity a filter holds: an order or a product,
// else its id as it is (a job, a session).
async function chosenEntity(id) {
  if (!id) return new Map();
  if (!/^[0-9a-f-]{36}$/i.test(id)) return new Map([[id, { id, label: id }]]);
  const [orders, products] = await Promise.all([names.orders([id]).catch(() => new Map()), names.products([id]).catch(() => new Map())]);
  return new Map([[id, orders.get(id) || products.get(id) || { id, label: id }]]);
}

function kindOf(action) {
  return String(action).split('.')[0];
}

export async function auditPage({ query }) {
  const f = Object.fromEntries(KEYS.map((k) => [k, query.get(k) || '']));
  const page = query.get('page') || '1';
  const head = pageHead('Audit log');
  let res;
  let admins = new Map();
  let chosen = new Map();
  try {
    [res, admins, chosen] = await Promise.all([api('GET', '/audit-logs' + qs({ ...f, page, limit: 50 })), names.admins(), chosenEntity(f.entityId)]);
  } catch (err) {
    res = err;
  }
  const filterForm = filters({
    label: 'Filter the audit log', values: f,
    fields: [
      { name: 'action', label: 'Action', placeholder: 'order.refund or auth.*' },
      { name: 'adminId', label: 'Admin', type: 'picker', source: sources.admin, labels: admins, placeholder: 'Name or email' },
      { name: 'entityId', label: 'Entity', type: 'picker', source: entitySource, placeholder: 'Order number, product, customer', labels: chosen },
      { name: 'dateFrom', label: 'From (UTC day)', type: 'date' },
      { name: 'dateTo', label: 'To (UTC day)', type: 'date' },
    ],
    submit: 'Filter', onSubmit: async (v) => setQuery(v), done: () => {},
  });
  if (res instanceof Error) {
    if (res instanceof ApiError && res.field && filterForm.showError(res.field, res.message, res.issue)) return [head, filterForm];
    return [head, filterForm, errorNotice(res)];
  }
  // One request a kind for the names of the page's entities.
  const ids = { products: [], variants: [], orders: [] };
  for (const e of res.data) {
    const k = KINDS[kindOf(e.action)];
    if (k && k.lookup && ids[k.lookup] && e.entityId) ids[k.lookup].push(e.entityId);
  }
  const [products, variants, orders] = await Promise.all([
    ids.products.length ? names.products(ids.products) : new Map(),
    ids.variants.length ? names.variants(ids.variants) : new Map(),
    ids.orders.length ? names.orders(ids.orders) : new Map(),
  ]);
  const found = { products, variants, orders, admins };
  const entity = (e) => {
    if (!e.entityId) return '—';
    const kind = kindOf(e.action);
    const k = KINDS[kind] || {};
    const named = k.lookup ? found[k.lookup].get(e.entityId) : null;
    const text = named ? named.label : `${label(kind)} ${e.entityId.slice(0, 8)}`;
    const path = k.page ? k.page(e.entityId, named) : null;
    return h('span', {}, path ? link(path, text) : text, named && named.hint ? h('span', { class: 'muted' }, ' ', named.hint) : null);
  };
  const admin = (e) => {
    if (!e.adminId) return '—';
    const a = admins.get(e.adminId);
    return h('a', { href: '?' + new URLSearchParams({ adminId: e.adminId }), title: a ? a.hint : '' }, a ? a.label : 'A deleted admin');
  };
  return [
    head,
    filterForm,
    table([
      { label: 'When', cell: (e) => fmtTime(e.createdAt) },
      { label: 'Action', cell: (e) => h('code', {}, e.action) },
      { label: 'Admin', cell: admin },
      { label: 'Entity', cell: entity },
      { label: 'From', cell: (e) => h('span', { title: e.userAgent }, e.ipAddress || '—') },
      { label: 'Details', cell: (e) => (Object.keys(e.metadata || {}).length
        ? h('details', {}, h('summary', {}, 'Metadata'), h('pre', { class: 'json' }, JSON.stringify(e.metadata, null, 2))) : '—') },
    ], res.data, { empty: 'No entries match.', caption: 'Audit log' }),
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), 'entries'),
  ];
}
