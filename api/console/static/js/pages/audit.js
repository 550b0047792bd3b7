// The audit log, with its filters (super_admin): the admin and the entity
// are picked by name, and each entry names its admin and its entity (a
// product by title, a variant by product and SKU, an order by number, a
// customer by name, a return by its order's number, a webhook by its URL,
// the catalog's, shipping's and locations' by name), all of a page in one
// request (GET /audit-logs/entities).

import { h } from '../dom.js';
import { api, query as qs, ApiError } from '../api.js';
import { filters } from '../forms.js';
import { setQuery } from '../router.js';
import { pageHead, table, pager, errorNotice, link } from '../ui.js';
import { fmtTime, label } from '../format.js';
import { sources, names } from '../sources.js';

const KEYS = ['action', 'adminId', 'entityId', 'dateFrom', 'dateTo'];

// KINDS says how a named entity (by the kind the server found it as) reads
// and where it is shown.
const KINDS = {
  product: { page: (n) => '/products/' + n.id },
  variant: { page: (n) => (n.productId ? '/products/' + n.productId : null) },
  order: { page: (n) => '/orders/' + n.id },
  return: { text: (n) => `Return of ${n.label}`, hint: (n) => label(n.hint), page: (n) => '/returns/' + n.id },
  customer: { page: (n) => '/customers/' + n.id },
  admin: {},
  bundle: { page: (n) => '/bundles/' + n.id },
  collection: { page: (n) => '/collections/' + n.id },
  webhook: { page: (n) => '/webhooks/' + n.id },
  category: { page: () => '/categories' },
  customer_group: { page: () => '/customer-groups' },
  price_list: { page: () => '/price-lists' },
  discount: { page: () => '/discounts' },
  shipping_zone: { page: () => '/shipping' },
  shipping_method: { page: () => '/shipping' },
  location: { page: () => '/locations' },
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

// shown is how a named entity reads: {label, hint, path}.
function shown(n) {
  const k = KINDS[n.kind] || {};
  return { label: k.text ? k.text(n) : n.label, hint: k.hint ? k.hint(n) : n.hint, path: k.page ? k.page(n) : null };
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
  try {
    [res, admins] = await Promise.all([api('GET', '/audit-logs' + qs({ ...f, page, limit: 50 })), names.admins()]);
  } catch (err) {
    res = err;
  }
  // The page's entities and the filter's, named in one request.
  const ids = [f.entityId, ...(res instanceof Error ? [] : res.data.map((e) => e.entityId))];
  const entities = await names.auditEntities(ids).catch(() => new Map());
  const chosen = new Map();
  if (f.entityId) {
    const n = entities.get(f.entityId);
    chosen.set(f.entityId, { id: f.entityId, label: n && n.label ? shown(n).label : f.entityId });
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
  // An entity the server does not name (a job, a session, one deleted
  // since) is shown by the kind of its action and a short id.
  const entity = (e) => {
    if (!e.entityId) return '—';
    const n = entities.get(e.entityId);
    if (!n || !n.label) return `${label(kindOf(e.action))} ${e.entityId.slice(0, 8)}`;
    const s = shown(n);
    return h('span', {}, s.path ? link(s.path, s.label) : s.label, s.hint ? h('span', { class: 'muted' }, ' ', s.hint) : null);
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
