// Order detail: lines, totals with the GST split, payments, refunds, status
// history, fulfilments and returns, and the actions the admin's role allows
// (status moves, cancel, refund, fulfil with tracking, deliver).

import { h } from '../dom.js';
import { api, idempotencyKey } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, table, link, badge, facts, button, confirm, errorNotice } from '../ui.js';
import { formatMoney, formatRate, toPaise, fromPaise } from '../money.js';
import { fmtTime, label } from '../format.js';
import { session } from '../session.js';
import { orderReturns } from '../returnsui.js';

export async function orderPage({ params, rerender }) {
  const o = await api('GET', '/orders/' + encodeURIComponent(params.id));
  const cur = o.currency;
  const m = (v) => formatMoney(v, cur);
  const shipped = shippedByLine(o);
  const fulfilments = Array.isArray(o.fulfillments);

  return [
    pageHead(`Order ${o.orderNumber}`, badge(o.status), badge(o.paymentStatus), o.fulfillmentStatus ? badge(o.fulfillmentStatus) : null),
    h('div', { class: 'columns' },
      section('Customer',
        facts([
          ['Name', o.customerId ? link('/customers/' + o.customerId, o.name || o.email) : o.name],
          ['Email', o.email],
          ['Phone', o.phone || '—'],
          ['Ship to', address(o.shippingAddress)],
          ['Bill to', address(o.billingAddress)],
        ])),
      section('Order',
        facts([
          ['Placed', fmtTime(o.createdAt)],
          ['Updated', fmtTime(o.updatedAt)],
          ['Payment', `${o.paymentProvider} · ${o.paymentIntentId}`],
          o.discountCode ? ['Discount code', o.discountCode] : null,
          o.shippingMethod ? ['Shipping', [o.shippingMethod.name, o.shippingMethod.carrier].filter(Boolean).join(' · ')] : null,
        ]))),
    section('Items', table([
      { label: 'Item', cell: (l) => h('span', {}, l.productId ? link('/products/' + l.productId, l.title) : l.title, h('br'), h('span', { class: 'muted' }, l.sku)) },
      { label: 'Qty', class: 'num', cell: (l) => String(l.quantity) },
      fulfilments ? { label: 'Shipped', class: 'num', cell: (l) => String(shipped.get(l.id) || 0) } : null,
      o.items.some((l) => l.cancelledQuantity > 0) ? { label: 'Cancelled', class: 'num', cell: (l) => String(l.cancelledQuantity || 0) } : null,
      { label: 'Unit price', class: 'num', cell: (l) => m(l.unitPrice) },
      { label: 'Discount', class: 'num', cell: (l) => m(l.discountAmount) },
      { label: 'GST', class: 'num', cell: (l) => `${formatRate(l.gstRate)} · ${m(l.taxAmount)}` },
      { label: 'Line total', class: 'num', cell: (l) => m(l.lineTotal) },
    ].filter(Boolean), o.items)),
    h('div', { class: 'columns' },
      section('Totals', h('dl', { class: 'facts totals' },
        row('Subtotal', m(o.subtotal)),
        row('Discount', o.discountTotal ? '−' + m(o.discountTotal) : m(0)),
        row('Shipping', m(o.shippingCost)),
        row('Total', m(o.total), 'grand'),
        row('GST included', m(o.taxTotal)),
        o.tax && (o.tax.cgst || o.tax.sgst) ? [row('CGST', m(o.tax.cgst), 'sub'), row('SGST', m(o.tax.sgst), 'sub')] : null,
        o.tax && o.tax.igst ? row('IGST', m(o.tax.igst), 'sub') : null,
        row('Paid', m(o.paidTotal)),
        row('Refunded', m(o.refundedTotal)))),
      section('Actions', actions(o, rerender))),
    fulfilments ? fulfilmentSection(o, rerender) : null,
    await orderReturns(o, rerender),
    section('Payments', table([
      { label: 'When', cell: (p) => fmtTime(p.createdAt) },
      { label: 'Provider', cell: (p) => `${p.provider} · ${p.paymentId || p.paymentIntentId}` },
      { label: 'Method', cell: (p) => p.method || '—' },
      { label: 'Status', cell: (p) => badge(p.status) },
      { label: 'Amount', class: 'num', cell: (p) => formatMoney(p.amount, p.currency) },
    ], o.payments, { empty: 'No payments recorded.' })),
    section('Refunds', table([
      { label: 'When', cell: (r) => fmtTime(r.createdAt) },
      { label: 'Reason', cell: (r) => r.reason || '—' },
      { label: 'Status', cell: (r) => badge(r.status) },
      { label: 'Provider refund', cell: (r) => r.providerRefundId || '—' },
      { label: 'Amount', class: 'num', cell: (r) => m(r.amount) },
    ], o.refunds, { empty: 'No refunds.' })),
    section('History', h('ol', { class: 'timeline' }, o.history.map((e) => h('li', {},
      h('time', { datetime: e.createdAt }, fmtTime(e.createdAt)), ' ',
      e.fromStatus ? [badge(e.fromStatus), ' → '] : null, badge(e.toStatus),
      e.note ? h('p', { class: 'muted' }, e.note) : null)))),
  ];
}

function row(term, value, cls) {
  return [h('dt', { class: cls }, term), h('dd', { class: ['num', cls] }, value)];
}

function address(a) {
  if (!a || typeof a !== 'object') return '—';
  return [a.name, a.street, a.city, a.district, a.state, a.pincode, a.country].filter(Boolean).join(', ') || '—';
}

// shippedByLine sums the units of live fulfilments per order line.
function shippedByLine(o) {
  const out = new Map();
  for (const f of o.fulfillments || []) {
    if (f.status === 'cancelled') continue;
    for (const it of f.items || []) out.set(it.orderItemId, (out.get(it.orderItemId) || 0) + it.quantity);
  }
  return out;
}

function actions(o, rerender) {
  const cur = o.currency;
  const status = h('div', { class: 'form-status' });
  const out = [status];
  const moves = (session.settings.orderMoves || {})[o.status] || [];
  if (allowed('PATCH', '/orders/{}/status')) {
    const forward = moves.filter((s) => s !== 'cancelled');
    if (forward.length) {
      out.push(form({
        label: 'Move status',
        fields: [
          { name: 'status', label: 'New status', type: 'select', options: forward.map((s) => [s, label(s)]), required: true },
          { name: 'note', label: 'Note', maxlength: 1000 },
        ],
        submit: 'Update status',
        onSubmit: (v) => api('PATCH', `/orders/${o.id}/status`, v),
        done: (res) => { session.flash = `Order is now ${label(res.status).toLowerCase()}.`; rerender(); },
      }));
    }
    if (moves.includes('cancelled')) {
      out.push(h('p', {}, button('Cancel order', async () => {
        if (!(await confirm(`Cancel order ${o.orderNumber}? Its stock is returned. Refund the payment separately.`, 'Cancel order'))) return;
        try {
          await api('PATCH', `/orders/${o.id}/status`, { status: 'cancelled', note: 'Cancelled from the console' });
          session.flash = 'Order cancelled.';
          rerender();
        } catch (err) {
          status.replaceChildren(errorNotice(err));
        }
      }, { kind: 'danger' })));
    }
  }
  const left = toPaise(o.paidTotal) - toPaise(o.refundedTotal);
  if (allowed('POST', '/orders/{}/refund') && left > 0n) {
    out.push(h('details', { class: 'refund' }, h('summary', {}, 'Refund…'), form({
      label: 'Refund',
      values: { amount: fromPaise(left), initiatePaymentRefund: true },
      fields: [
        { name: 'amount', label: `Amount (up to ${formatMoney(fromPaise(left), cur)})`, type: 'money', required: true },
        { name: 'reason', label: 'Reason', maxlength: 500 },
        { name: 'initiatePaymentRefund', label: 'Refund through the payment provider', type: 'checkbox' },
      ],
      submit: 'Refund',
      kind: 'danger',
      onSubmit: (v, { key }) => api('POST', `/orders/${o.id}/refund`, v, { headers: { 'Idempotency-Key': key } }),
      done: (r) => { session.flash = `Refund of ${formatMoney(r.amount, cur)} ${label(r.status).toLowerCase()}.`; rerender(); },
    })));
  }
  if (out.length === 1) out.push(h('p', { class: 'muted' }, 'No action is open to you on this order.'));
  return out;
}

function fulfilmentSection(o, rerender) {
  const shipped = shippedByLine(o);
  const canFulfil = allowed('POST', '/orders/{}/fulfillments') && ['confirmed', 'processing'].includes(o.status);
  const open = o.items.map((l) => ({ line: l, left: l.quantity - (l.cancelledQuantity || 0) - (shipped.get(l.id) || 0) })).filter((x) => x.left > 0);
  let fulfilForm = null;
  if (canFulfil && open.length) {
    const rows = open.map(({ line, left }) => {
      const qty = h('input', { type: 'number', min: 0, max: left, value: left, name: `qty-${line.id}`, 'aria-label': `Units of ${line.title} (${line.sku}) to ship, of ${left}` });
      return { line, qty, row: h('tr', {}, h('td', {}, `${line.title} (${line.sku})`), h('td', { class: 'num' }, String(left)), h('td', {}, qty)) };
    });
    fulfilForm = h('details', { open: true, class: 'fulfil' }, h('summary', {}, 'Ship items…'), form({
      label: 'Fulfil',
      values: { notifyCustomer: true },
      fields: [
        { name: 'carrier', label: 'Carrier', required: true, maxlength: 100 },
        { name: 'trackingNumber', label: 'Tracking number', required: true, maxlength: 100 },
        { name: 'trackingUrl', label: 'Tracking link', type: 'url', maxlength: 500 },
        { name: 'notifyCustomer', label: 'Email the customer the tracking link', type: 'checkbox' },
      ],
      extra: h('table', { class: 'data compact' }, h('thead', {}, h('tr', {}, h('th', {}, 'Item'), h('th', { class: 'num' }, 'Unshipped'), h('th', {}, 'Ship now'))),
        h('tbody', {}, rows.map((r) => r.row))),
      submit: 'Create fulfilment',
      onSubmit: (v, { key }) => api('POST', `/orders/${o.id}/fulfillments`, {
        ...v,
        items: rows.filter((r) => Number(r.qty.value) > 0).map((r) => ({ orderItemId: r.line.id, quantity: Number(r.qty.value) })),
      }, { headers: { 'Idempotency-Key': key } }),
      done: () => { session.flash = 'Fulfilment created.'; rerender(); },
    }));
  }
  const status = h('div', { class: 'form-status' });
  const act = (f, verb, flash) => async () => {
    try {
      await api('POST', `/orders/${o.id}/fulfillments/${f.id}/${verb}`);
      session.flash = flash;
      rerender();
    } catch (err) {
      status.replaceChildren(errorNotice(err));
    }
  };
  const titles = new Map(o.items.map((l) => [l.id, l.title]));
  const cancelUnshipped = cancelUnshippedButton(o, open, status, rerender);
  return section('Fulfilments', status,
    table([
      { label: 'Shipped', cell: (f) => fmtTime(f.shippedAt) },
      { label: 'Items', cell: (f) => (f.items || []).map((it) => `${it.quantity} × ${titles.get(it.orderItemId) || it.orderItemId}`).join(', ') },
      { label: 'Tracking', cell: (f) => h('span', {}, f.carrier || '—', ' ', f.trackingUrl
        ? h('a', { href: safeURL(f.trackingUrl), target: '_blank', rel: 'noopener noreferrer', 'data-external': '' }, f.trackingNumber || 'track')
        : (f.trackingNumber || '')) },
      { label: 'Status', cell: (f) => h('span', {}, badge(f.status), f.deliveredAt ? h('span', { class: 'muted' }, ' ' + fmtTime(f.deliveredAt)) : null) },
      { label: '', cell: (f) => (f.status === 'shipped' ? h('span', { class: 'row-actions' },
        allowed('POST', '/orders/{}/fulfillments/{}/deliver') ? button('Mark delivered', act(f, 'deliver', 'Fulfilment delivered.'), { kind: 'small' }) : null,
        allowed('POST', '/orders/{}/fulfillments/{}/cancel') ? button('Cancel', act(f, 'cancel', 'Fulfilment cancelled; its units are back in stock.'), { kind: 'small danger' }) : null) : '') },
    ], o.fulfillments, { empty: 'Nothing shipped yet.' }),
    fulfilForm,
    cancelUnshipped);
}

// cancelUnshippedButton cancels every unit not yet shipped (their stock is
// released; the order is cancelled when nothing shipped), after a
// confirmation. Its Idempotency-Key is made when drawn and renewed after
// every definite answer, so a lost answer is not applied twice and a
// refused request does not block the next.
function cancelUnshippedButton(o, open, status, rerender) {
  const path = '/orders/{}/unfulfilled-items/cancel';
  if (!open.length || !allowed('POST', path) || !['confirmed', 'processing'].includes(o.status)) return null;
  const units = open.reduce((n, x) => n + x.left, 0);
  let key = idempotencyKey();
  return h('p', {}, button(`Cancel ${units} unshipped unit${units === 1 ? '' : 's'}…`, async () => {
    const what = open.map((x) => `${x.left} × ${x.line.title} (${x.line.sku})`).join(', ');
    if (!(await confirm(`Cancel the unshipped units of order ${o.orderNumber}: ${what}? Their stock is released. Refund the payment separately.`, 'Cancel units'))) return;
    try {
      await api('POST', `/orders/${o.id}/unfulfilled-items/cancel`, { note: 'Cancelled from the console' }, { headers: { 'Idempotency-Key': key } });
      key = idempotencyKey();
      session.flash = 'Unshipped units cancelled; their stock is released.';
      rerender();
    } catch (err) {
      if (err.status >= 400 && err.status < 500 && !(err.status === 409 && err.details.issue === 'in progress')) key = idempotencyKey();
      status.replaceChildren(errorNotice(err));
    }
  }, { kind: 'danger' }));
}

// safeURL lets only http(s) tracking links become links.
function safeURL(u) {
  try {
    const url = new URL(u);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : '#';
  } catch {
    return '#';
  }
}

