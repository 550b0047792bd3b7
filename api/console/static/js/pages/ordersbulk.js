// Fulfilling several orders at once from the orders list: one carrier for
// all, a tracking number (and optional link) per order. Each order is a
// fulfilment of all its unshipped units (POST /orders/{id}/fulfillments
// without items), sent one after the other with its own Idempotency-Key;
// each order's outcome is shown beside it, and a refused one can be
// corrected and sent again without sending the others twice.

import { h, replace, uid } from '../dom.js';
import { api, keyedSender, ApiError } from '../api.js';
import { button, openDialog, notice, errorNotice } from '../ui.js';
import { session } from '../session.js';

/** FULFILLABLE are the order statuses a fulfilment may be created in. */
export const FULFILLABLE = ['confirmed', 'processing'];

// wait resolves after s seconds (a 429's Retry-After).
const wait = (s) => new Promise((resolve) => setTimeout(resolve, s * 1000));

/** bulkFulfil opens the dialog fulfilling orders; rerender() after it closes with work done. */
export function bulkFulfil(orders, rerender) {
  const carrierId = uid('carrier');
  const carrier = h('input', { id: carrierId, name: 'carrier', required: true, maxlength: 100, autocomplete: 'off' });
  const notifyId = uid('notify');
  const notify = h('input', { id: notifyId, type: 'checkbox', name: 'notifyCustomer', checked: true });
  const status = h('div', { class: 'form-status', role: 'status' });
  const rows = orders.map((o) => {
    const tracking = h('input', { name: `tracking-${o.id}`, required: true, maxlength: 100, autocomplete: 'off', 'aria-label': `Tracking number of ${o.orderNumber}` });
    const trackingUrl = h('input', { name: `tracking-url-${o.id}`, type: 'url', maxlength: 500, autocomplete: 'off', 'aria-label': `Tracking link of ${o.orderNumber}` });
    const outcome = h('td', { class: 'outcome', 'aria-live': 'polite' });
    return { o, tracking, trackingUrl, outcome, keys: keyedSender(), done: false,
      row: h('tr', { dataset: { orderId: o.id } }, h('th', { scope: 'row' }, o.orderNumber, h('br'), h('span', { class: 'muted' }, o.name || o.email)),
        h('td', {}, tracking), h('td', {}, trackingUrl), outcome) };
  });
  let changed = false;
  const submit = button(`Fulfil ${orders.length} ${orders.length === 1 ? 'order' : 'orders'}`, async () => {
    status.replaceChildren();
    if (!carrier.value.trim()) {
      status.replaceChildren(notice('error', 'Carrier is required.'));
      carrier.focus();
      return;
    }
    const missing = rows.find((r) => !r.done && !r.tracking.value.trim());
    if (missing) {
      status.replaceChildren(notice('error', `Tracking number of ${missing.o.orderNumber} is required.`));
      missing.tracking.focus();
      return;
    }
    submit.disabled = true;
    let ok = 0;
    let refused = 0;
    for (const r of rows) {
      if (r.done) continue;
      replace(r.outcome, 'Sending…');
      const body = { carrier: carrier.value.trim(), trackingNumber: r.tracking.value.trim(), notifyCustomer: notify.checked };
      if (r.trackingUrl.value.trim()) body.trackingUrl = r.trackingUrl.value.trim();
      for (;;) {
        try {
          await r.keys.send((key) => api('POST', `/orders/${r.o.id}/fulfillments`, body, { headers: { 'Idempotency-Key': key } }));
          r.done = true;
          changed = true;
          ok += 1;
          r.tracking.disabled = true;
          r.trackingUrl.disabled = true;
          replace(r.outcome, notice('ok', 'Fulfilled'));
        } catch (err) {
          if (err instanceof ApiError && err.status === 429 && err.retryAfter > 0) {
            // Over the per-admin limit: wait it out and go on.
            replace(r.outcome, `Waiting ${err.retryAfter} s (too many requests)…`);
            await wait(err.retryAfter);
            continue;
          }
          refused += 1;
          replace(r.outcome, errorNotice(err));
        }
        break;
      }
    }
    submit.disabled = rows.every((r) => r.done);
    status.replaceChildren(notice(refused ? 'error' : 'ok',
      `${ok} fulfilled${refused ? `, ${refused} refused: correct them and send again, or close` : ''}.`));
    if (!refused) {
      const all = rows.length;
      session.flash = `${all} ${all === 1 ? 'order' : 'orders'} fulfilled.`;
      close();
    }
  }, { kind: 'primary' });
  const close = openDialog('Fulfil orders', h('div', { class: 'bulk-fulfil' },
    h('p', { class: 'help' }, 'Every unshipped unit of each order ships in one fulfilment.'),
    h('div', { class: 'field' }, h('label', { for: carrierId }, 'Carrier', h('span', { class: 'req', 'aria-hidden': 'true' }, ' *')), carrier),
    h('div', { class: 'field field-checkbox' }, notify, h('label', { for: notifyId }, 'Email each customer the tracking link')),
    h('div', { class: 'table-wrap' }, h('table', { class: 'data compact' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Order'), h('th', { scope: 'col' }, 'Tracking number'),
        h('th', { scope: 'col' }, 'Tracking link'), h('th', { scope: 'col' }, 'Outcome'))),
      h('tbody', {}, rows.map((r) => r.row)))),
    status,
    h('div', { class: 'actions' }, submit)), { onClose: () => { if (changed) rerender(); } });
  return close;
}
