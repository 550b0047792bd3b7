// What each picker searches, and how a page names the ids it holds: one
// request per page for all the ids of a kind (?ids=), never one per row.

import { api, query, referenceList } from './api.js';
import { label } from './format.js';

const PICKS = 8;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function variantName(v) {
  const options = [v.size, v.color].filter(Boolean).join(' / ');
  return options ? `${v.productTitle} — ${options}` : v.productTitle;
}

function productItem(p) {
  const stock = p.variantCount === undefined ? '' : ` · ${p.available} available`;
  return { id: p.id, label: p.title, hint: `${label(p.status)}${stock}` };
}

function variantItem(v) {
  return { id: v.id, label: variantName(v), hint: v.sku, variant: v };
}

function customerItem(c) {
  return { id: c.id, label: c.name || c.email, hint: c.name ? c.email : '' };
}

function orderItem(o) {
  return { id: o.id, label: o.orderNumber, hint: [o.name, o.email].filter(Boolean).join(' · ') };
}

function adminItem(u) {
  return { id: u.id, label: u.name || u.email, hint: u.name ? u.email : label(u.role) };
}

/** sources are the pickers' searches by kind. */
export const sources = {
  product: { search: async (term) => (await api('GET', '/products' + query({ search: term, limit: PICKS }))).data.map(productItem) },
  variant: { search: async (term) => (await api('GET', '/variants' + query({ search: term, limit: PICKS }))).data.map(variantItem) },
  customer: { search: async (term) => (await api('GET', '/customers' + query({ search: term, limit: PICKS }))).data.map(customerItem) },
  order: { search: async (term) => (await api('GET', '/orders' + query({ search: term, limit: PICKS }))).data.map(orderItem) },
  admin: { search: async (term) => (await api('GET', '/users' + query({ search: term, limit: PICKS }))).data.map(adminItem) },
  // Categories are few: the list is kept and filtered as one types.
  category: {
    minChars: 0,
    search: async (term) => {
      const t = term.toLowerCase();
      return (await referenceList('/categories')).filter((c) => c.name.toLowerCase().includes(t))
        .slice(0, 20).map((c) => ({ id: c.id, label: c.name }));
    },
  },
  // Collections and shipping zones are few too.
  collection: {
    minChars: 0,
    search: async (term) => {
      const t = term.toLowerCase();
      return (await referenceList('/collections')).filter((c) => c.name.toLowerCase().includes(t))
        .slice(0, 20).map((c) => ({ id: c.id, label: c.name }));
    },
  },
  zone: {
    minChars: 0,
    search: async (term) => {
      const t = term.toLowerCase();
      return (await referenceList('/shipping/zones')).filter((z) => z.name.toLowerCase().includes(t))
        .slice(0, 20).map((z) => ({ id: z.id, label: z.name }));
    },
  },
};

// byIds asks a list for the rows of ids, 100 at a time, and maps them by id.
async function byIds(path, ids, item) {
  const unique = [...new Set(ids.filter(Boolean))];
  const out = new Map();
  for (let i = 0; i < unique.length; i += 100) {
    const part = unique.slice(i, i + 100);
    const res = await api('GET', path + query({ ids: part.join(','), limit: 100 }));
    for (const row of res.data) out.set(row.id, item(row));
  }
  return out;
}

/** names resolve ids to {label, hint, ...} by kind, in one request per 100 ids. */
export const names = {
  products: (ids) => byIds('/products', ids, productItem),
  variants: (ids) => byIds('/variants', ids, variantItem),
  orders: (ids) => byIds('/orders', ids, orderItem),
  customer: async (id) => new Map(id ? [[id, customerItem(await api('GET', '/customers/' + encodeURIComponent(id)))]] : []),
  categories: async (ids) => new Map((await referenceList('/categories')).filter((c) => ids.includes(c.id)).map((c) => [c.id, { id: c.id, label: c.name }])),
  collections: async (ids) => new Map((await referenceList('/collections')).filter((c) => ids.includes(c.id)).map((c) => [c.id, { id: c.id, label: c.name }])),
  zones: async (ids) => new Map((await referenceList('/shipping/zones')).filter((z) => ids.includes(z.id)).map((z) => [z.id, { id: z.id, label: z.name }])),
  admins: async () => new Map((await referenceList('/users')).map((u) => [u.id, adminItem(u)])),
  // The entities audit entries name, of any kind, in one request (a page of
  // the log holds at most 50; super_admin): {label, hint, kind, productId}.
  auditEntities: async (ids) => {
    const unique = [...new Set(ids.filter((id) => UUID.test(id || '')))];
    if (!unique.length) return new Map();
    const res = await api('GET', '/audit-logs/entities' + query({ ids: unique.join(',') }));
    return new Map(res.data.map((e) => [e.id, { id: e.id, label: e.name, hint: e.detail, kind: e.kind, productId: e.productId }]));
  },
};

/** variantsBySKU resolves exact SKUs to variants, 100 at a time. */
export async function variantsBySKU(skus) {
  const unique = [...new Set(skus)];
  const out = new Map();
  for (let i = 0; i < unique.length; i += 100) {
    const res = await api('GET', '/variants' + query({ skus: unique.slice(i, i + 100).join(','), limit: 100 }));
    for (const v of res.data) out.set(v.sku, v);
  }
  return out;
}

export { variantName };
