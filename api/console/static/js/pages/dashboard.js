// Dashboard: revenue by day, orders by status, top products and low-stock
// alerts over a range of UTC days (GET /analytics/orders and /products).

import { h } from '../dom.js';
import { api, query as qs, ApiError } from '../api.js';
import { filters } from '../forms.js';
import { setQuery, navigate } from '../router.js';
import { pageHead, section, table, link, errorNotice, badge, button } from '../ui.js';
import { formatMoney } from '../money.js';
import { storeDay } from '../format.js';
import { revenueChart } from '../chart.js';
import { hsnWarning } from '../hsnwarning.js';
import { currency } from '../session.js';

export async function dashboardPage({ query }) {
  const range = { dateFrom: query.get('dateFrom') || storeDay(-29), dateTo: query.get('dateTo') || storeDay(0) };
  const rangeForm = filters({
    label: 'Date range',
    fields: [
      { name: 'dateFrom', label: 'From (UTC day)', type: 'date', value: range.dateFrom },
      { name: 'dateTo', label: 'To (UTC day)', type: 'date', value: range.dateTo },
    ],
    submit: 'Show',
    onSubmit: async (v) => setQuery(v),
    done: () => {},
  });
  const head = pageHead('Dashboard');
  const warning = hsnWarning();
  let orders;
  let products;
  try {
    [orders, products] = await Promise.all([
      api('GET', '/analytics/orders' + qs(range)),
      api('GET', '/analytics/products' + qs(range)),
    ]);
  } catch (err) {
    if (!(err instanceof ApiError && err.field && rangeForm.showError(err.field, err.message, err.issue))) {
      return [head, rangeForm, errorNotice(err)];
    }
    return [head, rangeForm];
  }
  const cur = orders.currency || currency();
  const statuses = Object.entries(orders.ordersByStatus || {});
  // Revenue and the average leave cancelled orders out,
  // so "Orders" counts the same orders: totalOrders includes the cancelled.
  const cancelled = (orders.ordersByStatus || {}).cancelled || 0;
  const counted = orders.totalOrders - cancelled;
  return [
    head,
    await warning,
    rangeForm,
    h('div', { class: 'stats' },
      stat('Revenue', formatMoney(orders.totalRevenue, cur)),
      stat('Orders', String(counted), cancelled ? `not counting ${cancelled} cancelled` : ''),
      stat('Average order', formatMoney(orders.averageOrderValue, cur), `revenue over ${counted} ${counted === 1 ? 'order' : 'orders'}`)),
    section('Revenue by day', revenueChart(orders.revenueByDay || [], cur),
      h('p', { class: 'muted' }, `${orders.dateFrom} to ${orders.dateTo} (UTC). Revenue is order totals less refunds, cancelled orders excluded; figures may be up to a minute behind.`)),
    h('div', { class: 'columns' },
      section('Orders by status', statuses.length
        ? h('ul', { class: 'status-counts' }, statuses.map(([status, n]) => h('li', {},
          link('/orders' + qs({ status }), badge(status)), h('span', { class: 'count' }, String(n)))))
        : h('p', { class: 'empty' }, 'No orders in this range.')),
      section('Top products', table([
        { label: 'Product', cell: (p) => link('/products/' + p.productId, p.title) },
        { label: 'Orders', class: 'num', cell: (p) => String(p.orders) },
        { label: 'Units', class: 'num', cell: (p) => String(p.unitsSold) },
        { label: 'Revenue', class: 'num', cell: (p) => formatMoney(p.revenue, cur) },
      ], products.topProducts || [], { empty: 'No sales in this range.' }))),
    section('Low stock', table([
      { label: 'SKU', cell: (a) => a.sku },
      { label: 'Available', class: 'num', cell: (a) => String(a.currentStock) },
      { label: 'Threshold', class: 'num', cell: (a) => String(a.threshold) },
      { label: '', cell: (a) => button('Open product', () => openVariant(a.variantId), { kind: 'small' }) },
    ], products.inventoryAlerts || [], { empty: 'No variant is at or below its threshold.' })),
  ];
}

function stat(title, value, note = '') {
  return h('div', { class: 'stat card' }, h('p', { class: 'stat-label' }, title), h('p', { class: 'stat-value' }, value),
    note ? h('p', { class: 'stat-note muted' }, note) : null);
}

async function openVariant(variantId) {
  const v = await api('GET', '/variants/' + variantId);
  navigate('/products/' + v.productId);
}
