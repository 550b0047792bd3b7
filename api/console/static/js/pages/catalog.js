// Categories, collections (and a collection's products) and customer groups.

import { h } from '../dom.js';
import { api, query as qs, referenceList } from '../api.js';
import { allowed } from '../perm.js';
import { setQuery } from '../router.js';
import { crudPage } from '../crud.js';
import { pageHead, table, link, pager, badge, button, errorNotice, facts, section } from '../ui.js';
import { formatMoney } from '../money.js';
import { fmtTime } from '../format.js';
import { session, currency } from '../session.js';

export async function categoriesPage({ query, rerender }) {
  const all = await referenceList('/categories');
  const names = new Map(all.map((c) => [c.id, c.name]));
  return crudPage({
    title: 'Categories', noun: 'category', api: '/categories', route: '/categories/{}', query, rerender,
    name: (c) => c.name,
    columns: [
      { label: 'Name', cell: (c) => link('/products' + qs({ categoryId: c.id }), c.name) },
      { label: 'Slug', cell: (c) => c.slug },
      { label: 'Parent', cell: (c) => (c.parentId ? names.get(c.parentId) || c.parentId : '—') },
    ],
    values: (c) => ({ ...c, parentId: c.parentId || '' }),
    fields: (item) => [
      { name: 'name', label: 'Name', required: true, maxlength: 255 },
      { name: 'slug', label: 'Slug', help: 'Left empty, it is made from the name.', maxlength: 255 },
      { name: 'parentId', label: 'Parent', type: 'select', nullable: true,
        options: [['', 'None (top level)'], ...all.filter((c) => !item || c.id !== item.id).map((c) => [c.id, c.name])] },
      { name: 'description', label: 'Description', type: 'textarea' },
    ],
  });
}

export async function collectionsPage({ query, rerender }) {
  return crudPage({
    title: 'Collections', noun: 'collection', api: '/collections', route: '/collections/{}', query, rerender,
    name: (c) => c.name,
    columns: [
      { label: 'Name', cell: (c) => link('/collections/' + c.id, c.name) },
      { label: 'Slug', cell: (c) => c.slug },
      { label: 'Updated', cell: (c) => fmtTime(c.updatedAt) },
    ],
    fields: () => [
      { name: 'name', label: 'Name', required: true, maxlength: 255 },
      { name: 'slug', label: 'Slug', maxlength: 255, help: 'Left empty, it is made from the name.' },
      { name: 'imageUrl', label: 'Image URL', type: 'url', maxlength: 2000 },
      { name: 'description', label: 'Description', type: 'textarea' },
    ],
  });
}

export async function collectionPage({ params, query, rerender }) {
  const id = encodeURIComponent(params.id);
  const page = query.get('page') || '1';
  const [c, res] = await Promise.all([api('GET', '/collections/' + id), api('GET', `/collections/${id}/products` + qs({ page, limit: 20 }))]);
  const status = h('div', { class: 'form-status' });
  const canEdit = allowed('DELETE', '/collections/{}/products/{}');
  return [
    pageHead(c.name),
    section(null, facts([['Slug', c.slug], ['Products', String(c.productCount)], ['Description', c.description || '—'],
      ['Image', c.imageUrl || '—']]), h('p', { class: 'help' }, 'Add products to this collection from a product page.')),
    status,
    table([
      { label: 'Product', cell: (p) => link('/products/' + p.id, p.title) },
      { label: 'Status', cell: (p) => badge(p.status) },
      { label: 'Price', class: 'num', cell: (p) => formatMoney(p.price, currency()) },
      canEdit ? { label: 'Actions', cell: (p) => button('Remove', async () => {
        try {
          await api('DELETE', `/collections/${id}/products/${p.id}`);
          session.flash = `${p.title} removed.`;
          rerender();
        } catch (err) { status.replaceChildren(errorNotice(err)); }
      }, { kind: 'small', attrs: { 'aria-label': `Remove ${p.title}` } }) } : null,
    ].filter(Boolean), res.data, { empty: 'No products in this collection.' }),
    pager(res.pagination, (n) => setQuery({ page: n }), 'products'),
  ];
}

export async function customerGroupsPage({ query, rerender }) {
  return crudPage({
    title: 'Customer groups', noun: 'customer group', api: '/customer-groups', route: '/customer-groups/{}', query, rerender,
    name: (g) => g.name,
    intro: 'A group gets its own prices: per product on the product page, or per variant in a price list.',
    columns: [
      { label: 'Name', cell: (g) => g.name },
      { label: 'Description', cell: (g) => g.description || '—' },
      { label: 'Created', cell: (g) => fmtTime(g.createdAt) },
    ],
    fields: () => [
      { name: 'name', label: 'Name', required: true, maxlength: 255 },
      { name: 'description', label: 'Description', type: 'textarea' },
    ],
  });
}
