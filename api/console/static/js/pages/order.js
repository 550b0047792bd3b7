// Order detail: lines named by product, size, colour and SKU, totals with
// the GST split, payments, refunds, fulfilments, returns and one history of
// all of them, and the actions the admin's role allows (status moves,
// cancel, refund, record a payment, edit, fulfil with tracking, deliver). Three requests: the
// order (with its tax documents), its returns and the names of its
// variants (with their products' thumbnails).

import { h } from '../dom.js';
import { api, keyedSender } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, table, link, badge, facts, button, confirm, errorNotice } from '../ui.js';
import { paymentLinkActions } from '../linkshare.js';
import { formatMoney, formatRate, toPaise, fromPaise } from '../money.js';
import { fmtTime, label } from '../format.js';
import { session } from '../session.js';
import { orderReturns, loadReturns, lineName } from '../returnsui.js';
import { orderHistory, shipmentName } from '../orderhistory.js';
import { names } from '../sources.js';
import { thumbnails } from '../media.js';
import { linesEditor } from '../lines.js';
import { locationSelect } from '../locationselect.js';
import { orderDocuments } from '../taxdocsui.js';
import { orderMessages } from '../ordermessages.js';
import { codConfirmation, answersForCustomer } from '../codconfirmui.js';

export async function orderPage({ params, rerender }) {
  const o = await api('GET', '/orders/' + encodeURIComponent(params.id));
  const [returns, variants] = await Promise.all([
    loadReturns(o),
    allowed('GET', '/variants') ? names.variants(o.items.map((l) => l.variantId)).catch(() => new Map()) : new Map(),
  ]);
  const title = (itemId) => lineName(o, itemId, variants);
  const cur = o.currency;
  const m = (v) => formatMoney(v, cur);
  const shipped = shippedByLine(o);
  const hasFulfillments = Array.isArray(o.fulfillments);
  // The variants lookup carries their products' thumbnails; only a line
  // whose variant is gone asks for its product's.
  const thumbs = thumbnails(new Map([...variants.values()].map((v) => [v.variant.productId, v.variant.productThumbnail || null])));
  queueMicrotask(() => thumbs.load()); // once the lines below asked for their slots

  return [
    pageHead(`Order ${o.orderNumber}`, badge(o.status), badge(o.paymentStatus), o.fulfillmentStatus ? badge(o.fulfillmentStatus) : null),
    codConfirmation(o, rerender),
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
          ['Payment', o.paymentMethod === 'cod'
            ? `Cash on delivery${Number(o.codFee) ? ` (fee ${m(o.codFee)})` : ''}`
            : h('span', { title: o.paymentIntentId || '' }, providerName(o.paymentProvider, o.paymentMethod))],
          ...references(o),
          o.discountCode ? ['Discount code', o.discountCode] : null,
          o.shippingMethod ? ['Shipping', [o.shippingMethod.name, o.shippingMethod.carrier].filter(Boolean).join(' · ')] : null,
        ]))),
    section('Items', table([
      { label: 'Item', cell: (l) => h('span', { class: 'with-thumb' }, thumbs.slot(l.productId),
        h('span', {}, l.productId ? link('/products/' + l.productId, l.title) : l.title, h('br'),
          h('span', { class: 'muted' }, [options(variants.get(l.variantId)), l.sku].filter(Boolean).join(' · ')))) },
      { label: 'Qty', class: 'num', cell: (l) => String(l.quantity) },
      hasFulfillments ? { label: 'Shipped', class: 'num', cell: (l) => String(shipped.get(l.id) || 0) } : null,
      o.items.some((l) => l.cancelledQuantity > 0) ? { label: 'Cancelled', class: 'num', cell: (l) => String(l.cancelledQuantity || 0) } : null,
      { label: 'Unit price', class: 'num', cell: (l) => m(l.unitPrice) },
      { label: 'Discount', class: 'num', cell: (l) => m(l.discountAmount) },
      { label: 'GST', class: 'num', cell: (l) => `${formatRate(l.gstRate)} · ${m(l.taxAmount)}` },
      { label: 'Line total', class: 'num', cell: (l) => m(l.lineTotal) },
    ].filter(Boolean), o.items)),
    h('div', { class: 'columns' },
      section('Totals', h('dl', { class: 'facts totals' },
        row('Subtotal', m(o.subtotal)),
        row('Discount', Number(o.discountTotal) ? '−' + m(o.discountTotal) : m(0)),
        row('Shipping', m(o.shippingCost)),
        Number(o.codFee) ? row('COD fee', m(o.codFee)) : null,
        row('Total', m(o.total), 'grand'),
        taxRows(o, m),
        row('Paid', m(o.paidTotal)),
        row('Refunded', m(o.refundedTotal)))),
      section('Actions', actions(o, rerender))),
    hasFulfillments ? fulfillmentSection(o, rerender, title) : null,
    orderReturns(o, returns, rerender, variants),
    orderDocuments(o, rerender),
    section('Payments', table([
      { label: 'When', cell: (p) => fmtTime(p.createdAt) },
      { label: 'Provider', cell: (p) => h('span', { title: p.paymentId || p.paymentIntentId || '' }, providerName(p.provider, p.method)) },
      { label: 'Method', cell: (p) => METHOD_NAMES[p.method] || label(p.method) },
      { label: 'Reference (UTR)', cell: (p) => p.reference || '—' },
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
    orderMessages(o),
    orderHistory(o, returns ? returns.list : [], title),
  ];
}

// options names a variant's size and colour ("M / Black"), '' without.
function options(v) {
  return v && v.variant ? [v.variant.size, v.variant.color].filter(Boolean).join(' / ') : '';
}

// PROVIDER_NAMES and METHOD_NAMES say in words who took a payment and
// how; the provider's own ids stay in a title, for support.
const PROVIDER_NAMES = { razorpay: 'Razorpay', simulator: 'Payment simulator', offline: 'Recorded by staff', cod: 'Cash on delivery' };
const METHOD_NAMES = { cod: 'Cash on delivery', upi: 'UPI', bank_transfer: 'Bank transfer', cash: 'Cash', card: 'Card', netbanking: 'Net banking', online: 'Online' };

function providerName(provider, method) {
  const who = PROVIDER_NAMES[provider] || label(provider);
  const how = METHOD_NAMES[method];
  return how && how !== who && provider !== 'cod' ? `${who} (${how})` : who;
}

// references are the order facts naming what staff recorded a payment
// with (a COD remittance's UTR, a transfer's reference).
function references(o) {
  const refs = [...new Set((o.payments || []).map((p) => p.reference).filter(Boolean))];
  return refs.length ? [['Payment reference (UTR)', refs.join(', ')]] : [];
}

// taxRows are the GST inside the total as the invoices divide it once any
// are issued (an order shipped from another state's registration is IGST
// there, whatever it was priced with), else as the order was priced.
function taxRows(o, m) {
  const t = o.taxSplit || { cgst: (o.tax || {}).cgst, sgst: (o.tax || {}).sgst, igst: (o.tax || {}).igst, source: 'order' };
  const sum = (toPaise(t.cgst || 0) + toPaise(t.sgst || 0) + toPaise(t.igst || 0));
  const out = [row(t.source === 'invoices' ? 'GST included (as invoiced)' : 'GST included', m(fromPaise(sum || toPaise(o.taxTotal))))];
  if (Number(t.cgst) || Number(t.sgst)) out.push(row('CGST', m(t.cgst), 'sub'), row('SGST', m(t.sgst), 'sub'));
  if (Number(t.igst)) out.push(row('IGST', m(t.igst), 'sub'));
  return out;
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
  // A COD order waiting for its customer is answered for them (codconfirmui.js), not moved.
  const moves = answersForCustomer(o) ? [] : (session.settings.orderMoves || {})[o.status] || [];
  if (allowed('PATCH', '/orders/{}/status')) {
    const forward = moves.filter((s) => s !== 'cancelled');
    if (forward.length) {
      out.push(form({
        label: 'Move status',
        fields: [
          { name: 'status', label: 'New status', type: 'select', options: forward.map((s) => [s, label(s)]), required: true },
          { name: 'note', label: 'Note for the history', maxlength: 1000 },
        ],
        submit: 'Update status',
        onSubmit: (v) => api('PATCH', `/orders/${o.id}/status`, v),
        done: (res) => { session.flash = `Order is now ${label(res.status).toLowerCase()}.`; rerender(); },
      }));
    }
    if (moves.includes('cancelled')) {
      out.push(h('p', {}, button('Cancel order', async () => {
        if (!(await confirm(`Cancel order ${o.orderNumber}? Its stock is returned. Refund the payment separately.`, 'Cancel order', 'Keep order'))) return;
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
  // What is due: an unpaid order's total, or the balance an edit left owed.
  const due = o.paymentStatus === 'partially_paid' ? toPaise(o.balanceDue) : toPaise(o.total) - toPaise(o.paidTotal);
  if (allowed('POST', '/orders/{}/payments') && ['pending', 'partially_paid'].includes(o.paymentStatus) && o.status !== 'cancelled' && due > 0n) {
    out.push(h('details', { class: 'record-payment' }, h('summary', {}, 'Record payment…'), form({
      label: 'Record payment',
      values: { method: o.paymentMethod === 'cod' ? 'cod' : 'upi', amount: fromPaise(due) },
      fields: [
        { name: 'method', label: 'Received by', type: 'select', required: true,
          options: [['cod', 'Cash on delivery'], ['upi', 'UPI'], ['bank_transfer', 'Bank transfer'], ['cash', 'Cash']] },
        { name: 'amount', label: `Amount (due ${formatMoney(fromPaise(due), cur)})`, type: 'money', required: true },
        { name: 'reference', label: 'Reference (remittance id, UTR)', maxlength: 100 },
      ],
      submit: 'Record payment',
      onSubmit: (v, { key }) => api('POST', `/orders/${o.id}/payments`, v, { headers: { 'Idempotency-Key': key } }),
      done: () => { session.flash = 'Payment recorded; the order is paid.'; rerender(); },
    })));
  }
  if (allowed('POST', '/orders/{}/payment-link') && o.paymentStatus === 'partially_paid' && o.status !== 'cancelled') {
    const shown = h('div', { 'aria-live': 'polite' });
    const open = (o.paymentLinks || []).filter((l) => l.status === 'open' && l.url);
    const linkLine = (l) => h('div', { class: 'link-line' }, h('p', {}, `Payment link for ${formatMoney(l.amount, cur)}, open until ${fmtTime(l.expiresAt)}: `,
      h('a', { href: safeURL(l.url), rel: 'noopener', target: '_blank', class: 'payment-link' }, l.url)), paymentLinkActions(l.url));
    shown.replaceChildren(...open.map(linkLine));
    const keys = keyedSender();
    out.push(h('div', { class: 'balance-link' }, button('Payment link for the balance', async () => {
      try {
        const r = await keys.send((key) => api('POST', `/orders/${o.id}/payment-link`, {}, { headers: { 'Idempotency-Key': key } }));
        shown.replaceChildren(linkLine({ ...r.paymentLink, amount: r.amount }), h('p', { class: 'muted' }, 'Share it with the customer; the order is paid when they pay it.'));
      } catch (err) {
        shown.replaceChildren(errorNotice(err));
      }
    }), shown));
  }
  const left = toPaise(o.paidTotal) - toPaise(o.refundedTotal);
  if (allowed('POST', '/orders/{}/refund') && left > 0n) {
    // The amount starts empty (a refund of the whole balance is typed, not
    // accepted by pressing Enter) and is confirmed before it is sent.
    // A COD order's money never went through the gateway: it is refunded by
    // hand, with the transfer's reference (docs/DECISIONS.md "Cash on
    // delivery and offline payments").
    const manualOnly = o.paymentMethod === 'cod';
    out.push(h('details', { class: 'refund' }, h('summary', {}, 'Refund…'), form({
      label: 'Refund',
      values: { initiatePaymentRefund: !manualOnly },
      confirm: (v) => ({
        message: manualOnly
          ? `Record a refund of ${formatMoney(v.amount, cur)} on order ${o.orderNumber}, paid back by hand (reference ${v.reference})?`
          : v.initiatePaymentRefund
          ? `Refund ${formatMoney(v.amount, cur)} of order ${o.orderNumber} to the customer through the payment provider?`
          : `Record a refund of ${formatMoney(v.amount, cur)} on order ${o.orderNumber}, paid back outside the payment provider?`,
        yes: `Refund ${formatMoney(v.amount, cur)}`,
        no: 'Don\'t refund',
      }),
      fields: [
        { name: 'amount', label: `Amount (up to ${formatMoney(fromPaise(left), cur)})`, type: 'money', required: true },
        { name: 'reason', label: 'Reason', maxlength: 500 },
        manualOnly
          ? { name: 'reference', label: 'Reference of the money paid back (e.g. the UTR)', required: true, maxlength: 100 }
          : { name: 'initiatePaymentRefund', label: 'Refund through the payment provider', type: 'checkbox' },
      ],
      submit: 'Refund',
      kind: 'danger',
      onSubmit: (v, { key }) => api('POST', `/orders/${o.id}/refund`, manualOnly ? { ...v, method: 'manual' } : v,
        { headers: { 'Idempotency-Key': key } }),
      done: (r) => { session.flash = `Refund of ${formatMoney(r.amount, cur)} ${label(r.status).toLowerCase()}.`; rerender(); },
    })));
  }
  const edit = editOrder(o, rerender);
  if (edit) out.push(edit);
  if (out.length === 1) out.push(h('p', { class: 'muted' }, 'No action is open to you on this order.'));
  return out;
}

// editOrder is "Edit order" (docs/DECISIONS.md "Order edits"): a new
// quantity for each line (not below what shipped) and variants to add; Preview
// asks the server for the new total and the difference without writing
// (dryRun), and the edit is applied once confirmed with that difference.
function editOrder(o, rerender) {
  if (!allowed('POST', '/orders/{}/edits') || !['confirmed', 'processing'].includes(o.status)) return null;
  const cur = o.currency;
  const shipped = shippedByLine(o);
  const live = (l) => l.quantity - (l.cancelledQuantity || 0);
  let added = [];
  const adds = linesEditor({ label: 'Add a variant', onChange: (ls) => { added = ls; } });
  const preview = h('div', { class: 'edit-preview', 'aria-live': 'polite' });
  const byHand = o.paymentMethod !== 'online';
  const body = (v, dryRun) => ({
    items: o.items.filter((l) => v['q_' + l.id] !== live(l)).map((l) => ({ orderItemId: l.id, quantity: v['q_' + l.id] })),
    add: added, note: v.note || '', dryRun, ...(byHand && v.reference ? { reference: v.reference } : {}),
  });
  const said = (r) => [`New total ${formatMoney(r.order.total, cur)} (${r.difference >= 0 ? '+' : '−'}${formatMoney(Math.abs(r.difference), cur)})`,
    r.refundAmount > 0 ? `, ${formatMoney(r.refundAmount, cur)} refunded` : '',
    r.balanceDue > (o.balanceDue || 0) ? `, ${formatMoney(r.balanceDue, cur)} owed by the customer` : ''].join('');
  const el = form({
    label: 'Edit order',
    values: Object.fromEntries(o.items.map((l) => ['q_' + l.id, live(l)])),
    fields: [
      ...o.items.map((l) => ({ name: 'q_' + l.id, label: `Units of ${l.title} (${l.sku})`, type: 'number', required: true,
        help: shipped.get(l.id) ? `${shipped.get(l.id)} shipped` : undefined })),
      { name: 'note', label: 'Reason for the edit', maxlength: 1000 },
      byHand ? { name: 'reference', label: 'Reference of money paid back by hand, if the total falls (e.g. the UTR)', maxlength: 100 } : null,
    ],
    extra: adds,
    actions: button('Preview', async () => {
      try {
        const r = await api('POST', `/orders/${o.id}/edits`, body(el.values(), true));
        preview.replaceChildren(h('p', {}, said(r), '.'));
      } catch (err) {
        preview.replaceChildren(errorNotice(err));
      }
    }),
    confirm: () => ({ message: `Apply this edit to order ${o.orderNumber}? ${preview.textContent || 'Preview it first to see the new total.'}`,
      yes: 'Apply edit', no: 'Don\'t edit' }),
    submit: 'Apply edit',
    onSubmit: (v, { key }) => api('POST', `/orders/${o.id}/edits`, body(v, false), { headers: { 'Idempotency-Key': key } }),
    done: (r) => {
      session.flash = r.refundError ? `Order edited; the refund was not made: ${r.refundError.message}` : `Order edited. ${said(r)}.`;
      rerender();
    },
  });
  return h('details', { class: 'edit-order' }, h('summary', {}, 'Edit order…'), el, preview);
}

function fulfillmentSection(o, rerender, title) {
  const shipped = shippedByLine(o);
  const canFulfil = allowed('POST', '/orders/{}/fulfillments') && ['confirmed', 'processing'].includes(o.status);
  const open = o.items.map((l) => ({ line: l, left: l.quantity - (l.cancelledQuantity || 0) - (shipped.get(l.id) || 0) })).filter((x) => x.left > 0);
  let fulfilForm = null;
  if (canFulfil && open.length) {
    const rows = open.map(({ line, left }) => {
      const qty = h('input', { type: 'number', min: 0, max: left, value: left, name: `qty-${line.id}`, 'aria-label': `Units of ${title(line.id)} to ship, of ${left}` });
      return { line, qty, row: h('tr', {}, h('td', {}, title(line.id)), h('td', { class: 'num' }, String(left)), h('td', {}, qty)) };
    });
    fulfilForm = h('details', { open: true, class: 'fulfil' }, h('summary', {}, 'Ship items…'), form({
      label: 'Fulfil',
      values: { notifyCustomer: true },
      fields: [
        { name: 'carrier', label: 'Carrier', maxlength: 100, help: 'Leave carrier and tracking empty to have the courier book it (a location with a pickup code).' },
        { name: 'trackingNumber', label: 'Tracking number', maxlength: 100 },
        { name: 'trackingUrl', label: 'Tracking link', type: 'url', maxlength: 500 },
        { name: 'notifyCustomer', label: 'Email the customer the tracking link', type: 'checkbox' },
        { name: 'vehicleNumber', label: 'Vehicle number (for an e-way bill)', maxlength: 20 },
      ],
      extra: [allowed('GET', '/locations') ? locationSelect('Ship from', 'Automatic (highest priority able to ship)') : null, h('table', { class: 'data compact' }, h('thead', {}, h('tr', {}, h('th', {}, 'Item'), h('th', { class: 'num' }, 'Unshipped'), h('th', {}, 'Ship now'))),
        h('tbody', {}, rows.map((r) => r.row)))],
      submit: 'Create fulfilment',
      onSubmit: (v, { key }) => api('POST', `/orders/${o.id}/fulfillments`, {
        ...v,
        vehicleNumber: v.vehicleNumber || undefined,
        locationId: fulfilForm.querySelector('select[name=locationId]')?.value || undefined,
        items: rows.filter((r) => Number(r.qty.value) > 0).map((r) => ({ orderItemId: r.line.id, quantity: Number(r.qty.value) })),
      }, { headers: { 'Idempotency-Key': key } }),
      done: () => { session.flash = 'Fulfilment created.'; rerender(); },
    }));
  }
  const status = h('div', { class: 'form-status' });
  const keys = keyedSender();
  const act = (f, verb, flash) => async () => {
    try {
      await keys.send((key) => api('POST', `/orders/${o.id}/fulfillments/${f.id}/${verb}`, undefined, { headers: { 'Idempotency-Key': key } }));
      session.flash = flash;
      rerender();
    } catch (err) {
      status.replaceChildren(errorNotice(err));
    }
  };
  const cancelUnshipped = cancelUnshippedButton(o, open, status, rerender);
  return section('Fulfilments', status,
    table([
      { label: 'Shipped', cell: (f) => fmtTime(f.shippedAt) },
      { label: 'Items', cell: (f) => h('ul', { class: 'plain' }, (f.items || []).map((it) => h('li', {}, `${it.quantity} × ${title(it.orderItemId)}`))) },
      { label: 'Tracking', cell: (f) => h('span', {}, f.carrier || '—', ' ', f.trackingUrl
        ? h('a', { href: safeURL(f.trackingUrl), target: '_blank', rel: 'noopener noreferrer', 'data-external': '' }, f.trackingNumber || 'track')
        : (f.trackingNumber || '')) },
      { label: 'Status', cell: (f) => h('span', {}, badge(f.status), f.deliveredAt ? h('span', { class: 'muted' }, ' ' + fmtTime(f.deliveredAt)) : null) },
      { label: 'Courier', cell: (f) => courierCell(o, f, status, rerender) },
      { label: 'E-way bill', cell: (f) => ewayBillCell(f.ewayBill) },
      { label: '', cell: (f) => (f.status === 'shipped' ? h('span', { class: 'row-actions' },
        allowed('POST', '/orders/{}/fulfillments/{}/deliver') ? button('Mark delivered', act(f, 'deliver', 'Fulfilment delivered.'), { kind: 'small' }) : null,
        allowed('POST', '/orders/{}/fulfillments/{}/cancel') ? button('Cancel shipment', async () => {
          if (await confirm(`Cancel the shipment by ${shipmentName(f)}? Its units go back in stock.`, 'Cancel shipment', 'Keep shipment')) await act(f, 'cancel', 'Fulfilment cancelled; its units are back in stock.')();
        }, { kind: 'small danger', attrs: { 'aria-label': `Cancel the shipment by ${shipmentName(f)}` } }) : null,
        allowed('POST', '/orders/{}/fulfillments/{}/return-to-origin') ? button('Returned to origin', async () => {
          if (await confirm(`The courier brought the shipment by ${shipmentName(f)} back undelivered? Its units go back in stock, and the order is cancelled when nothing else of it is live. No refund is made.`, 'Returned to origin', 'Keep shipment')) await act(f, 'return-to-origin', 'Shipment returned to origin; its units are back in stock.')();
        }, { kind: 'small danger', attrs: { 'aria-label': `Shipment by ${shipmentName(f)} returned to origin` } }) : null) : '') },
    ], o.fulfillments, { empty: 'Nothing shipped yet.' }),
    fulfilForm,
    cancelUnshipped);
}

// courierCell is a fulfilment's booking with the courier (docs/DECISIONS.md
// "Couriers"): its status and AWB, the label, the scans as a timeline, and
// the decision on a failed delivery.
function courierCell(o, f, status, rerender) {
  const s = f.shipment;
  if (!s) return h('span', { class: 'muted' }, '—');
  const keys = keyedSender();
  const decide = (action, flash) => async () => {
    try {
      await keys.send((key) => api('POST', `/orders/${o.id}/fulfillments/${f.id}/ndr-action`, { action }, { headers: { 'Idempotency-Key': key } }));
      session.flash = flash;
      rerender();
    } catch (err) {
      status.replaceChildren(errorNotice(err));
    }
  };
  const ndr = s.status === 'undelivered' && allowed('POST', '/orders/{}/fulfillments/{}/ndr-action');
  return h('div', { class: 'courier' },
    h('span', {}, badge(s.status), s.awb ? ' ' + s.awb : '', s.ndrAttempts ? h('span', { class: 'muted' }, ` ${s.ndrAttempts} failed attempt${s.ndrAttempts === 1 ? '' : 's'}: ${s.ndrReason}`) : null),
    s.awb && allowed('GET', '/orders/{}/fulfillments/{}/label') ? h('p', {}, h('a', { href: `/api/v1/admin/orders/${o.id}/fulfillments/${f.id}/label`, target: '_blank', rel: 'noopener' }, 'Label (PDF)')) : null,
    s.pickupScheduledFor ? h('p', { class: 'muted' }, 'Pickup ' + fmtTime(s.pickupScheduledFor)) : null,
    ndr ? h('span', { class: 'row-actions' },
      button('Deliver again', decide('reattempt', 'The courier will attempt the delivery again.'), { kind: 'small' }),
      button('Return to us', decide('return', 'The courier will bring the parcel back.'), { kind: 'small danger' })) : null,
    (s.events || []).length ? h('details', { class: 'timeline' }, h('summary', {}, `Tracking (${s.events.length})`),
      h('ol', { class: 'plain' }, s.events.map((e) => h('li', {}, fmtTime(e.at), ' ', badge(e.status), e.location ? ' ' + e.location : '', e.remark ? h('span', { class: 'muted' }, ' ' + e.remark) : null)))) : null);
}

// ewayBillCell is a fulfilment's e-way bill: none needed, or its status
// with the number and validity, or the portal's error.
function ewayBillCell(b) {
  if (!b) return '—';
  return h('span', { class: 'eway-bill' }, badge(b.status),
    b.number ? h('span', {}, ` ${b.number}`) : null,
    b.validUntil ? h('span', { class: 'muted' }, ` valid until ${fmtTime(b.validUntil)}`) : null,
    b.error ? h('span', { class: 'error', role: 'note' }, ' ' + b.error) : null);
}

// cancelUnshippedButton cancels every unit not yet shipped (their stock is
// released; the order is cancelled when nothing shipped), after a
// confirmation, with the key handling of every console form (keyedSender).
function cancelUnshippedButton(o, open, status, rerender) {
  const path = '/orders/{}/unfulfilled-items/cancel';
  if (!open.length || !allowed('POST', path) || !['confirmed', 'processing'].includes(o.status)) return null;
  const units = open.reduce((n, x) => n + x.left, 0);
  const keys = keyedSender();
  return h('p', {}, button(`Cancel ${units} unshipped unit${units === 1 ? '' : 's'}…`, async () => {
    const what = open.map((x) => `${x.left} × ${x.line.title} (${x.line.sku})`).join(', ');
    if (!(await confirm(`Cancel the unshipped units of order ${o.orderNumber}: ${what}? Their stock is released. Refund the payment separately.`, 'Cancel units', 'Keep units'))) return;
    try {
      await keys.send((key) => api('POST', `/orders/${o.id}/unfulfilled-items/cancel`, { note: 'Cancelled from the console' }, { headers: { 'Idempotency-Key': key } }));
      session.flash = 'Unshipped units cancelled; their stock is released.';
      rerender();
    } catch (err) {
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

