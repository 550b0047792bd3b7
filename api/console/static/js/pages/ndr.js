// The NDR queue (docs/DECISIONS.md "Couriers"): parcels the courier failed
// to deliver, the longest waiting first, each decided with one click: the
// courier attempts it again, or brings it back.

import { h } from '../dom.js';
import { api, keyedSender, query as qs } from '../api.js';
import { allowed } from '../perm.js';
import { setQuery } from '../router.js';
import { pageHead, table, link, pager, badge, button, errorNotice } from '../ui.js';
import { fmtTime } from '../format.js';
import { session } from '../session.js';

export async function ndrPage({ query, rerender }) {
  const page = query.get('page') || '1';
  const res = await api('GET', '/ndr' + qs({ page, limit: 20 }));
  const status = h('div', { class: 'form-status' });
  const canDecide = allowed('POST', '/orders/{}/fulfillments/{}/ndr-action');
  const keys = keyedSender();
  const decide = (n, action, flash) => async () => {
    try {
      await keys.send((key) => api('POST', `/orders/${n.orderId}/fulfillments/${n.fulfillmentId}/ndr-action`, { action },
        { headers: { 'Idempotency-Key': key } }));
      session.flash = flash;
      rerender();
    } catch (err) { status.replaceChildren(errorNotice(err)); }
  };
  return [
    pageHead('Failed deliveries'),
    h('p', { class: 'muted' }, 'The courier could not deliver these parcels. Decide each: the courier tries again, or brings it back (its return to origin then puts the units back in stock).'),
    status,
    table([
      { label: 'Order', cell: (n) => link('/orders/' + n.orderId, n.orderNumber) },
      { label: 'AWB', cell: (n) => h('span', {}, n.awb || '—', ' ', h('span', { class: 'muted' }, n.courierName)) },
      { label: 'Reason', cell: (n) => n.reason || '—' },
      { label: 'Attempts', class: 'num', cell: (n) => String(n.attempts) },
      { label: 'Last scan', cell: (n) => (n.lastScan ? h('span', {}, badge(n.lastScan.status), ' ', fmtTime(n.lastScan.at)) : '—') },
      canDecide ? { label: 'Decision', cell: (n) => h('span', { class: 'row-actions' },
        button('Deliver again', decide(n, 'reattempt', `The courier will attempt order ${n.orderNumber} again.`), { kind: 'small', attrs: { 'aria-label': `Deliver order ${n.orderNumber} again` } }),
        button('Return to us', decide(n, 'return', `The courier will bring order ${n.orderNumber} back.`), { kind: 'small danger', attrs: { 'aria-label': `Return order ${n.orderNumber} to us` } })) } : null,
    ].filter(Boolean), res.data, { empty: 'No failed deliveries wait for a decision.' }),
    pager(res.pagination, (n) => setQuery({ page: n }), 'failed deliveries'),
  ];
}
