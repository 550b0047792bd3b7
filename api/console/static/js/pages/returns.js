// Returns (docs/DECISIONS.md "Returns"): the list by status or order (picked by its
// number or customer), each named by its order's number, and one return
// with its actions.

import { h } from '../dom.js';
import { api, query as qs } from '../api.js';
import { filters } from '../forms.js';
import { setQuery } from '../router.js';
import { pageHead, section, table, link, pager, badge } from '../ui.js';
import { formatMoney } from '../money.js';
import { fmtTime } from '../format.js';
import { currency } from '../session.js';
import { returnCard, returnName } from '../returnsui.js';
import { sources, names } from '../sources.js';

const STATUSES = ['requested', 'approved', 'rejected', 'received', 'refunded', 'cancelled'];

export async function returnsPage({ query }) {
  const f = { status: query.get('status') || '', orderId: query.get('orderId') || '' };
  const page = query.get('page') || '1';
  const res = await api('GET', '/returns' + qs({ ...f, page, limit: 20 }));
  const orders = await names.orders([...res.data.map((r) => r.orderId), f.orderId]);
  const number = (id) => (orders.get(id) || { label: 'an order' }).label;
  return [
    pageHead('Returns'),
    filters({
      label: 'Filter returns', values: f,
      fields: [
        { name: 'status', label: 'Status', type: 'select', options: [['', 'Any status'], ...STATUSES.map((s) => [s, s.charAt(0).toUpperCase() + s.slice(1)])] },
        { name: 'orderId', label: 'Order', type: 'picker', source: sources.order, labels: orders, placeholder: 'Number, name or email' },
      ],
      submit: 'Filter', onSubmit: async (v) => setQuery(v), done: () => {},
    }),
    table([
      { label: 'Return', cell: (r) => link('/returns/' + r.id, returnName(r)) },
      { label: 'Order', cell: (r) => h('span', {}, link('/orders/' + r.orderId, number(r.orderId)), h('br'),
        h('span', { class: 'muted' }, (orders.get(r.orderId) || { hint: '' }).hint)) },
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
  const variants = await names.variants(order.items.map((l) => l.variantId)).catch(() => new Map());
  return [
    pageHead(returnName(ret, order.orderNumber), badge(ret.status)),
    h('p', {}, 'For order ', link('/orders/' + order.id, order.orderNumber), ` placed ${fmtTime(order.createdAt)} by ${order.name || order.email}.`),
    section(null, returnCard(ret, order, rerender, { heading: false, variants })),
  ];
}
