// Draft orders: the orders staff is building for customers, newest first,
// each with its customer, total and state, and the way to start a new one.

import { h } from '../dom.js';
import { api, query as qs } from '../api.js';
import { filters } from '../forms.js';
import { allowed } from '../perm.js';
import { setQuery } from '../router.js';
import { pageHead, table, pager, badge, link, linkButton } from '../ui.js';
import { formatMoney } from '../money.js';
import { fmtTime } from '../format.js';
import { sources, names } from '../sources.js';

export async function draftsPage({ query }) {
  const f = { customerId: query.get('customerId') || '' };
  const page = query.get('page') || '1';
  const [res, customer] = await Promise.all([api('GET', '/draft-orders' + qs({ ...f, page, limit: 20 })),
    f.customerId ? names.customer(f.customerId) : new Map()]);
  return [
    pageHead('Draft orders', allowed('POST', '/draft-orders') ? linkButton('/draft-orders/new', 'New draft order', 'primary') : null),
    filters({
      label: 'Filter draft orders', values: f,
      fields: [{ name: 'customerId', label: 'Customer', type: 'picker', source: sources.customer, labels: customer, placeholder: 'Name or email' }],
      submit: 'Filter', onSubmit: async (v) => setQuery(v), done: () => {},
    }),
    table([
      { label: 'Customer', cell: (d) => h('span', {}, link('/draft-orders/' + d.id, d.name || d.email), d.name ? h('span', { class: 'muted' }, ' ' + d.email) : null) },
      { label: 'Created', cell: (d) => fmtTime(d.createdAt) },
      { label: 'Lines', class: 'num', cell: (d) => String(d.items.length) },
      { label: 'Total', class: 'num', cell: (d) => formatMoney(d.total, d.currency) },
      { label: 'Status', cell: (d) => badge(d.status) },
      { label: 'Order', cell: (d) => (d.orderId ? link('/orders/' + d.orderId, 'Open the order', { 'aria-label': `Open the order made from the draft for ${d.name || d.email}` }) : '—') },
    ], res.data, { empty: 'No draft orders.', caption: 'Draft orders' }),
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), 'draft orders'),
  ];
}
