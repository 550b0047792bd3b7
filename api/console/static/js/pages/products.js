// Products list (search, status, category, paged) and the new-product form.

import { h } from '../dom.js';
import { api, query as qs } from '../api.js';
import { form, filters } from '../forms.js';
import { allowed } from '../perm.js';
import { setQuery, navigate } from '../router.js';
import { pageHead, table, link, linkButton, pager, badge, section } from '../ui.js';
import { formatMoney } from '../money.js';
import { fmtTime, label } from '../format.js';
import { session, currency } from '../session.js';
import { thumbnails } from '../media.js';

/** categoryOptions lists categories for a select, with a leading blank choice. */
export async function categoryOptions(blank = 'None') {
  const res = await api('GET', '/categories?limit=100');
  return [['', blank], ...res.data.map((c) => [c.id, c.name])];
}

export async function productsPage({ query }) {
  const f = { search: query.get('search') || '', status: query.get('status') || '', categoryId: query.get('categoryId') || '' };
  const page = query.get('page') || '1';
  const [res, cats] = await Promise.all([api('GET', '/products' + qs({ ...f, page, limit: 20 })), categoryOptions('Any category')]);
  const thumbs = thumbnails();
  const rows = table([
    { label: 'Product', cell: (p) => h('span', { class: 'with-thumb' }, thumbs.slot(p.id), link('/products/' + p.id, p.title)) },
    { label: 'Status', cell: (p) => badge(p.status) },
    { label: 'Price', class: 'num', cell: (p) => formatMoney(p.price, currency()) },
    { label: 'Updated', cell: (p) => fmtTime(p.updatedAt) },
  ], res.data, { empty: 'No products match.', caption: 'Products' });
  thumbs.load();
  return [
    pageHead('Products', allowed('POST', '/products') ? linkButton('/products/new', 'New product', 'primary') : null),
    filters({
      label: 'Find products',
      values: f,
      fields: [
        { name: 'search', label: 'Search', type: 'search', help: 'Matches title and description.' },
        { name: 'status', label: 'Status', type: 'select', options: [['', 'Any status'], ...(session.settings.productStatuses || []).map((s) => [s, label(s)])] },
        { name: 'categoryId', label: 'Category', type: 'select', options: cats },
      ],
      submit: 'Search',
      onSubmit: async (v) => setQuery(v),
      done: () => {},
    }),
    rows,
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), 'products'),
  ];
}

/** productFields are the product form's fields (shared by create and edit). */
export function productFields(cats, { canPrice = true } = {}) {
  return [
    { name: 'title', label: 'Title', required: true, maxlength: 255, wide: true },
    { name: 'slug', label: 'Slug', help: 'Left empty, it is made from the title.', maxlength: 255 },
    { name: 'status', label: 'Status', type: 'select', options: (session.settings.productStatuses || []).map((s) => [s, label(s)]) },
    { name: 'price', label: `Price (${currency()}, GST included)`, type: 'money', required: true, disabled: !canPrice,
      help: canPrice ? null : 'Changing a price needs the pricing permission.' },
    { name: 'gstRate', label: 'GST rate (%)', type: 'rate' },
    { name: 'hsnCode', label: 'HSN code', maxlength: 20 },
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
      values: { status: 'draft', gstRate: '18' },
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

