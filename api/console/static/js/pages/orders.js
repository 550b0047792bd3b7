// Orders list: filters by status, UTC date range, customer and order number,
// paged (GET /orders).

import { h } from '../dom.js';
import { api, query as qs, ApiError } from '../api.js';
import { filters } from '../forms.js';
import { setQuery } from '../router.js';
import { pageHead, table, link, pager, errorNotice, badge } from '../ui.js';
import { formatMoney } from '../money.js';
import { fmtTime, label } from '../format.js';
import { session } from '../session.js';

const KEYS = ['status', 'dateFrom', 'dateTo', 'customerId', 'orderNumber'];

export async function ordersPage({ query }) {
  const f = Object.fromEntries(KEYS.map((k) => [k, query.get(k) || '']));
  const page = query.get('page') || '1';
  const filterForm = filters({
    label: 'Filter orders',
    values: f,
    fields: [
      { name: 'orderNumber', label: 'Order number', placeholder: 'ORD-…' },
      { name: 'status', label: 'Status', type: 'select', options: [['', 'Any status'], ...(session.settings.orderStatuses || []).map((s) => [s, label(s)])] },
      { name: 'dateFrom', label: 'From (UTC day)', type: 'date' },
      { name: 'dateTo', label: 'To (UTC day)', type: 'date' },
      { name: 'customerId', label: 'Customer id', type: 'uuid', help: 'Open a customer to see their orders.' },
    ],
    submit: 'Filter',
    onSubmit: async (v) => setQuery(v),
    done: () => {},
  });
  const head = pageHead('Orders');
  let res;
  try {
    res = await api('GET', '/orders' + qs({ ...f, page, limit: 20 }));
  } catch (err) {
    if (err instanceof ApiError && err.field && filterForm.showError(err.field, err.message)) return [head, filterForm];
    return [head, filterForm, errorNotice(err)];
  }
  return [
    head,
    filterForm,
    table([
      { label: 'Order', cell: (o) => link('/orders/' + o.id, o.orderNumber) },
      { label: 'Placed', cell: (o) => fmtTime(o.createdAt) },
      { label: 'Customer', cell: (o) => h('span', {}, o.name || '—', h('br'), h('span', { class: 'muted' }, o.email)) },
      { label: 'Items', class: 'num', cell: (o) => String(o.itemCount) },
      { label: 'Total', class: 'num', cell: (o) => formatMoney(o.total, o.currency) },
      { label: 'Payment', cell: (o) => badge(o.paymentStatus) },
      { label: 'Status', cell: (o) => badge(o.status) },
    ], res.data, { empty: 'No orders match.', caption: 'Orders' }),
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), 'orders'),
  ];
}
