// Returns (docs/DECISIONS.md "Returns"): the list by status or order, and one return
// with its actions.

import { h } from '../dom.js';
import { api, query as qs } from '../api.js';
import { filters } from '../forms.js';
import { setQuery } from '../router.js';
import { pageHead, section, table, link, pager, badge } from '../ui.js';
import { formatMoney } from '../money.js';
import { fmtTime } from '../format.js';
import { currency } from '../session.js';
import { returnCard } from '../returnsui.js';

const STATUSES = ['requested', 'approved', 'rejected', 'received', 'refunded', 'cancelled'];

export async function returnsPage({ query }) {
  const f = { status: query.get('status') || '', orderId: query.get('orderId') || '' };
  const page = query.get('page') || '1';
  const res = await api('GET', '/returns' + qs({ ...f, page, limit: 20 }));
  return [
    pageHead('Returns'),
    filters({
      label: 'Filter returns', values: f,
      fields: [
        { name: 'status', label: 'Status', type: 'select', options: [['', 'Any status'], ...STATUSES.map((s) => [s, s.charAt(0).toUpperCase() + s.slice(1)])] },
        { name: 'orderId', label: 'Order id', type: 'uuid' },
      ],
      submit: 'Filter', onSubmit: async (v) => setQuery(v), done: () => {},
    }),
    table([
      { label: 'Return', cell: (r) => link('/returns/' + r.id, r.id.slice(0, 8)) },
      { label: 'Order', cell: (r) => link('/orders/' + r.orderId, 'Open order') },
      { label: 'Opened', cell: (r) => fmtTime(r.createdAt) },
      { label: 'Units', class: 'num', cell: (r) => String((r.items || []).reduce((n, it) => n + it.quantity, 0)) },
      { label: 'Refund', class: 'num', cell: (r) => formatMoney(r.refundAmount, currency()) },
      { label: 'Status', cell: (r) => badge(r.status) },
    ], res.data, { empty: 'No returns match.' }),
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), 'returns'),
  ];
}

export async function returnPage({ params, rerender }) {
  const ret = await api('GET', '/returns/' + encodeURIComponent(params.id));
  const order = await api('GET', '/orders/' + ret.orderId);
  return [
    pageHead(`Return ${ret.id.slice(0, 8)}`, badge(ret.status)),
    h('p', {}, 'For order ', link('/orders/' + order.id, order.orderNumber), ` placed ${fmtTime(order.createdAt)}.`),
    section(null, returnCard(ret, order, rerender, { heading: false })),
  ];
}
