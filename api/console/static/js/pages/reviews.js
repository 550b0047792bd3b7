// Review moderation: publish or hide customers' reviews, each shown with
// its product's title; the product filter is picked by title or SKU.

import { h } from '../dom.js';
import { api, query as qs } from '../api.js';
import { filters } from '../forms.js';
import { allowed } from '../perm.js';
import { setQuery } from '../router.js';
import { pageHead, table, link, pager, badge, button, errorNotice } from '../ui.js';
import { fmtTime } from '../format.js';
import { session } from '../session.js';
import { sources, names } from '../sources.js';

export async function reviewsPage({ query, rerender }) {
  const f = { status: query.get('status') || '', productId: query.get('productId') || '' };
  const page = query.get('page') || '1';
  const res = await api('GET', '/reviews' + qs({ ...f, page, limit: 20 }));
  const products = await names.products([...res.data.map((r) => r.productId), f.productId]);
  const status = h('div', { class: 'form-status' });
  const canModerate = allowed('PATCH', '/reviews/{}');
  const moderate = (r, to) => async () => {
    try {
      await api('PATCH', '/reviews/' + r.id, { status: to });
      session.flash = to === 'published' ? 'Review published.' : 'Review hidden.';
      rerender();
    } catch (err) { status.replaceChildren(errorNotice(err)); }
  };
  return [
    pageHead('Reviews'),
    filters({
      label: 'Filter reviews', values: f,
      fields: [
        { name: 'status', label: 'Status', type: 'select', options: [['', 'Any'], ['published', 'Published'], ['hidden', 'Hidden']] },
        { name: 'productId', label: 'Product', type: 'picker', source: sources.product, labels: products, placeholder: 'Title or SKU' },
      ],
      submit: 'Filter', onSubmit: async (v) => setQuery(v), done: () => {},
    }),
    status,
    table([
      { label: 'Product', cell: (r) => link('/products/' + r.productId, (products.get(r.productId) || { label: 'A deleted product' }).label) },
      { label: 'Rating', cell: (r) => h('span', { 'aria-label': `${r.rating} of 5` }, '★'.repeat(r.rating) + '☆'.repeat(5 - r.rating)) },
      { label: 'Review', cell: (r) => h('span', {}, r.comment || h('em', {}, 'no comment'), h('br'),
        h('span', { class: 'muted' }, `${r.authorName || r.customerEmail}${r.verifiedPurchase ? ' · verified purchase' : ''} · ${fmtTime(r.createdAt)}`)) },
      { label: 'Status', cell: (r) => badge(r.status) },
      canModerate ? { label: 'Actions', cell: (r) => (r.status === 'hidden'
        ? button('Publish', moderate(r, 'published'), { kind: 'small' })
        : button('Hide', moderate(r, 'hidden'), { kind: 'small danger' })) } : null,
    ].filter(Boolean), res.data, { empty: 'No reviews match.' }),
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), 'reviews'),
  ];
}
