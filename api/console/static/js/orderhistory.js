// An order's history as a merchant reads it: the status moves, each
// fulfilment by carrier and tracking number (shipped, delivered, cancelled),
// the refunds and the returns, in the order they happened. The API's
// status notes name fulfilments by id; here they are named by their
// carrier and tracking number.

import { h } from './dom.js';
import { badge, section } from './ui.js';
import { formatMoney } from './money.js';
import { fmtTime, label } from './format.js';

const TOTALS = /\btotal (\d+(?:\.\d{1,2})?) → (\d+(?:\.\d{1,2})?)/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** shipmentName names a fulfilment: "Delhivery DLV-1". */
export function shipmentName(f) {
  return [f.carrier, f.trackingNumber].filter(Boolean).join(' ') || 'a shipment without tracking';
}

function units(n) {
  return `${n} ${n === 1 ? 'unit' : 'units'}`;
}

/**
 * orderHistory is the history section of order o, with its returns and a
 * function naming an order line (id → text).
 */
export function orderHistory(o, returns, lineName) {
  const m = (v) => formatMoney(v, o.currency);
  const shipments = new Map((o.fulfillments || []).map((f) => [f.id, f]));
  const named = (note) => note.replace(UUID, (id) => (shipments.has(id) ? shipmentName(shipments.get(id)) : id))
    .replace(/^fulfilment /, 'Fulfilment by ')
    // An edit's note says its totals as the API writes amounts ("total
    // 2449 → 2988.1"): a person reads them as money.
    .replace(TOTALS, (_, from, to) => `total ${m(from)} → ${m(to)}`)
    .replace(/^order edited/, 'Order edited');
  const events = [];
  const add = (at, kind, ...content) => events.push({ at, kind, content });

  for (const e of o.history || []) {
    // A record that kept the status (an edit, a note) is its note alone;
    // "Delivered → Delivered" tells nothing.
    if (e.fromStatus && e.fromStatus === e.toStatus) {
      if (e.note) add(e.createdAt, 'note', named(e.note));
      continue;
    }
    add(e.createdAt, 'status', e.fromStatus ? [badge(e.fromStatus), ' → '] : null, badge(e.toStatus),
      e.note ? h('p', { class: 'muted' }, named(e.note)) : null);
  }
  for (const f of o.fulfillments || []) {
    const what = (f.items || []).map((it) => `${it.quantity} × ${lineName(it.orderItemId)}`).join(', ');
    const n = (f.items || []).reduce((s, it) => s + it.quantity, 0);
    add(f.shippedAt, 'shipment', `Shipped ${units(n)} by ${shipmentName(f)}`, what ? h('p', { class: 'muted' }, what) : null);
    if (f.deliveredAt) add(f.deliveredAt, 'shipment', `Delivered: ${shipmentName(f)}`);
    // A cancellation has no time of its own in the API: the status note
    // that records it stands for it; without one it is listed last.
    const noted = (o.history || []).some((x) => x.note && x.note.includes(f.id) && x.note.includes('cancelled'));
    if (f.status === 'cancelled' && !noted) add(null, 'shipment', `Shipment cancelled: ${shipmentName(f)}`);
  }
  for (const r of o.refunds || []) {
    add(r.createdAt, 'refund', `Refund of ${m(r.amount)} `, badge(r.status), r.reason ? h('p', { class: 'muted' }, r.reason) : null);
  }
  for (const r of returns || []) {
    const n = (r.items || []).reduce((s, it) => s + it.quantity, 0);
    const reasons = [...new Set((r.items || []).map((it) => label(it.reason)))].join(', ');
    add(r.createdAt, 'return', `Return of ${units(n)} opened by ${r.requestedBy === 'customer' ? 'the customer' : 'the shop'}`,
      h('p', { class: 'muted' }, [reasons, r.note].filter(Boolean).join(' · ')));
    if (r.status !== 'requested') {
      add(r.updatedAt, 'return', 'Return ', badge(r.status),
        r.status === 'rejected' && r.rejectReason ? h('p', { class: 'muted' }, `Reason: ${r.rejectReason}`) : null,
        r.status === 'refunded' || r.status === 'received' ? h('p', { class: 'muted' }, `Refund ${m(r.refundAmount)}`) : null);
    }
  }
  const at = (e) => (e.at ? new Date(e.at).getTime() : Number.MAX_SAFE_INTEGER);
  events.sort((a, b) => at(a) - at(b));
  return section('History', h('ol', { class: 'timeline' }, events
    .map((e) => h('li', { dataset: { kind: e.kind } },
      e.at ? h('time', { datetime: e.at }, fmtTime(e.at)) : null, e.at ? ' ' : null, e.content))));
}
