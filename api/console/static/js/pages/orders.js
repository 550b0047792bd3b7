// Orders list: search by number, customer name, email or phone, filters by
// status, payment method and state (COD still to collect: cod + pending),
// UTC date range and customer (picked by name), paged (GET /orders);
// the filtered orders exported as CSV (at once, or as a job when many), and
// the selected ones fulfilled together.

import { h, replace } from '../dom.js';
import { api, query as qs, ApiError, download } from '../api.js';
import { filters } from '../forms.js';
import { allowed } from '../perm.js';
import { setQuery } from '../router.js';
import { pageHead, table, link, pager, errorNotice, badge, button, jobPanel, notice } from '../ui.js';
import { formatMoney } from '../money.js';
import { fmtTime, label } from '../format.js';
import { session } from '../session.js';
import { sources, names } from '../sources.js';
import { bulkFulfil, FULFILLABLE } from './ordersbulk.js';

const KEYS = ['search', 'status', 'paymentMethod', 'paymentStatus', 'dateFrom', 'dateTo', 'customerId', 'orderNumber'];

// The ways an order is paid and the states of its payment, as the API
// names them (GET /admin/orders paymentMethod, paymentStatus).
const METHODS = [['', 'Any payment method'], ['online', 'Online'], ['cod', 'Cash on delivery'], ['offline', 'Offline']];
const PAYMENT_STATES = ['pending', 'paid', 'partially_paid', 'partially_refunded', 'refunded'];

// EXPORT_AT_ONCE is the server's limit of an export answered at once
// (internal/orderexport.DirectLimit); above it the export is a job.
const EXPORT_AT_ONCE = 1000;

export async function ordersPage({ query, rerender }) {
  const f = Object.fromEntries(KEYS.map((k) => [k, query.get(k) || '']));
  const page = query.get('page') || '1';
  const [listed, customer] = await Promise.all([
    api('GET', '/orders' + qs({ ...f, page, limit: 20 })).catch((err) => err),
    f.customerId ? names.customer(f.customerId).catch(() => new Map()) : new Map(),
  ]);
  const filterForm = filters({
    label: 'Filter orders',
    values: f,
    fields: [
      { name: 'search', label: 'Search', type: 'search', placeholder: 'Order number, name, email or phone', help: 'Part of an order number, or the customer\'s name, email or phone (as you like to write it).' },
      { name: 'status', label: 'Status', type: 'select', options: [['', 'Any status'], ...(session.settings.orderStatuses || []).map((s) => [s, label(s)])] },
      { name: 'paymentMethod', label: 'Paid by', type: 'select', options: METHODS },
      { name: 'paymentStatus', label: 'Payment', type: 'select', help: 'Cash on delivery with Pending: the COD orders still to collect.',
        options: [['', 'Any payment state'], ...PAYMENT_STATES.map((s) => [s, label(s)])] },
      { name: 'dateFrom', label: 'From (UTC day)', type: 'date' },
      { name: 'dateTo', label: 'To (UTC day)', type: 'date' },
      allowed('GET', '/customers') ? { name: 'customerId', label: 'Customer', type: 'picker', source: sources.customer, labels: customer, placeholder: 'Name or email' } : null,
      f.orderNumber ? { name: 'orderNumber', label: 'Order number', help: 'Exactly this order.' } : null,
    ],
    submit: 'Filter',
    onSubmit: async (v) => setQuery(v),
    done: () => {},
  });
  const head = pageHead('Orders');
  if (listed instanceof Error) {
    if (listed instanceof ApiError && listed.field && filterForm.showError(listed.field, listed.message, listed.issue)) return [head, filterForm];
    return [head, filterForm, errorNotice(listed)];
  }
  const res = listed;
  const status = h('div', { class: 'form-status' });
  const jobs = h('div', { class: 'jobs' });
  const canFulfil = allowed('POST', '/orders/{}/fulfillments');
  const selected = new Set();
  const fulfilButton = canFulfil ? button('Fulfil selected…', () => bulkFulfil(res.data.filter((o) => selected.has(o.id)), rerender),
    { attrs: { disabled: true } }) : null;
  const choose = (o) => {
    const box = h('input', { type: 'checkbox', name: `select-${o.id}`, 'aria-label': `Select ${o.orderNumber}` });
    box.addEventListener('change', () => {
      if (box.checked) selected.add(o.id);
      else selected.delete(o.id);
      fulfilButton.disabled = selected.size === 0;
      replace(fulfilButton, selected.size ? `Fulfil ${selected.size} selected…` : 'Fulfil selected…');
    });
    return FULFILLABLE.includes(o.status) ? box : '';
  };
  const exportCSV = allowed('GET', '/orders/export') ? button('Export CSV', async () => {
    status.replaceChildren();
    const filter = Object.fromEntries(Object.entries(f).filter(([, v]) => v));
    try {
      if (res.pagination.total <= EXPORT_AT_ONCE) {
        await download('/orders/export' + qs(filter), `orders-${new Date().toISOString().slice(0, 10)}.csv`);
        status.replaceChildren(notice('ok', `Exported ${res.pagination.total} orders.`));
        return;
      }
      const job = await api('POST', '/order-exports', filter);
      jobs.prepend(jobPanel(job.jobId, `Export of ${res.pagination.total} orders`, {
        done: (j) => h('p', {}, `${j.result.rows} orders written. `, button('Download CSV', async () => {
          try {
            await download(j.result.download.replace(/^\/api\/v1\/admin/, ''), `orders-${j.id.slice(0, 8)}.csv`);
          } catch (err) { status.replaceChildren(errorNotice(err)); }
        }, { kind: 'primary' })),
      }));
    } catch (err) {
      status.replaceChildren(errorNotice(err));
    }
  }) : null;
  return [
    head,
    filterForm,
    h('div', { class: 'toolbar' }, exportCSV, fulfilButton),
    status,
    jobs,
    table([
      canFulfil ? { label: 'Select', cell: choose } : null,
      { label: 'Order', cell: (o) => link('/orders/' + o.id, o.orderNumber) },
      { label: 'Placed', cell: (o) => fmtTime(o.createdAt) },
      { label: 'Customer', cell: (o) => h('span', {}, o.name || '—', h('br'), h('span', { class: 'muted' }, o.email)) },
      { label: 'Items', class: 'num', cell: (o) => String(o.itemCount) },
      { label: 'Total', class: 'num', cell: (o) => formatMoney(o.total, o.currency) },
      { label: 'Payment', cell: (o) => h('span', {}, badge(o.paymentStatus), ' ', h('span', { class: 'muted' }, METHODS.find(([m]) => m === o.paymentMethod)?.[1] || o.paymentMethod)) },
      { label: 'Status', cell: (o) => badge(o.status) },
    ].filter(Boolean), res.data, { empty: 'No orders match.', caption: 'Orders' }),
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), 'orders'),
  ];
}
