// Shipments with the courier (docs/DECISIONS.md "Couriers"), one status at
// a time (booked by default: parcels waiting to be handed over), the
// oldest first. Staff select several to print their labels as one PDF
// (POST /labels) and to schedule the courier's pickup of them (POST
// /pickups), which answers the pickup date and the manifest to hand the
// courier's rider.

import { h, replace } from '../dom.js';
import { api, download, keyedSender, query as qs } from '../api.js';
import { filters } from '../forms.js';
import { allowed } from '../perm.js';
import { setQuery } from '../router.js';
import { pageHead, section, table, link, pager, badge, button, notice, errorNotice, facts } from '../ui.js';
import { fmtTime, label } from '../format.js';
import { session } from '../session.js';

// scheduled is the pickup just scheduled, shown once above the list the
// page reloads (the list then shows each parcel's pickup date).
let scheduled = null;

export async function shipmentsPage({ query, rerender }) {
  const status = query.get('status') || 'booked';
  const page = query.get('page') || '1';
  const res = await api('GET', '/shipments' + qs({ status, page, limit: 20 }));
  const done = scheduled;
  scheduled = null;
  const outcome = h('div', { class: 'form-status' });
  const selected = new Set();
  const canPrint = allowed('POST', '/labels');
  const canPickup = allowed('POST', '/pickups');
  const chosen = () => res.data.filter((s) => selected.has(s.fulfillmentId));
  const count = h('span', { class: 'muted', 'aria-live': 'polite' }, 'None selected');

  const print = canPrint ? button('Print labels', async () => {
    const list = chosen();
    outcome.replaceChildren();
    try {
      const name = `labels-${new Date().toISOString().slice(0, 10)}-${list.length}.pdf`;
      await download('/labels', name, { method: 'POST', body: { fulfillmentIds: list.map((s) => s.fulfillmentId) } });
      outcome.replaceChildren(notice('ok', `Labels of ${list.length} ${list.length === 1 ? 'parcel' : 'parcels'} downloaded as ${name}: one page each, ready to print.`));
    } catch (err) { outcome.replaceChildren(errorNotice(err)); }
  }, { attrs: { disabled: true } }) : null;

  const pickupKeys = keyedSender();
  const pickup = canPickup && status === 'booked' ? button('Schedule pickup', async () => {
    const list = chosen();
    outcome.replaceChildren();
    pickup.disabled = true;
    try {
      const p = await pickupKeys.send((key) => api('POST', '/pickups', { fulfillmentIds: list.map((s) => s.fulfillmentId) },
        { headers: { 'Idempotency-Key': key } }));
      const numbers = new Map(list.map((s) => [s.fulfillmentId, s.orderNumber]));
      scheduled = { ...p, shipments: p.shipments.map((s) => ({ ...s, orderNumber: numbers.get(s.fulfillmentId) })) };
      rerender();
    } catch (err) {
      pickup.disabled = false;
      outcome.replaceChildren(errorNotice(err));
    }
  }, { kind: 'primary', attrs: { disabled: true } }) : null;

  const choose = (s) => {
    const box = h('input', { type: 'checkbox', name: `select-${s.fulfillmentId}`, 'aria-label': `Select ${s.orderNumber}` });
    box.addEventListener('change', () => {
      if (box.checked) selected.add(s.fulfillmentId);
      else selected.delete(s.fulfillmentId);
      for (const b of [print, pickup]) if (b) b.disabled = selected.size === 0;
      replace(count, selected.size ? `${selected.size} selected` : 'None selected');
    });
    return s.awb ? box : '';
  };

  const filterForm = filters({
    label: 'Filter shipments', values: { status },
    fields: [{ name: 'status', label: 'Status', type: 'select', options: (session.settings.shipmentStatuses || ['booked']).map((x) => [x, label(x)]) }],
    submit: 'Show', onSubmit: async (v) => setQuery(v), done: () => {},
  });
  return [
    pageHead('Shipments'),
    h('p', { class: 'muted' }, 'Parcels booked with the courier. Select those going out together: print their labels as one PDF, then schedule the courier\'s pickup and hand the rider the manifest.'),
    done ? pickupSummary(done) : null,
    filterForm,
    canPrint || pickup ? h('div', { class: 'toolbar' }, print, pickup, count) : null,
    outcome,
    table([
      canPrint || pickup ? { label: 'Select', cell: choose } : null,
      { label: 'Order', cell: (s) => h('span', {}, link('/orders/' + s.orderId, s.orderNumber), h('br'), h('span', { class: 'muted' }, s.customerName || '—')) },
      { label: 'AWB', cell: (s) => h('span', {}, s.awb || '—', ' ', h('span', { class: 'muted' }, s.courierName)) },
      { label: 'Status', cell: (s) => h('span', {}, badge(s.status), s.lastError ? h('span', { class: 'error' }, ' ' + s.lastError) : null) },
      { label: 'Pickup', cell: (s) => (s.pickupScheduledFor ? fmtTime(s.pickupScheduledFor) : h('span', { class: 'muted' }, 'Not scheduled')) },
      { label: 'Booked', cell: (s) => fmtTime(s.createdAt) },
    ].filter(Boolean), res.data, { empty: `No shipments are ${label(status).toLowerCase()}.`, caption: 'Shipments' }),
    pager(res.pagination, (n) => setQuery({ status, page: n }), 'shipments'),
  ];
}

// pickupSummary is the pickup the courier scheduled: its date, the
// manifest (the courier's PDF, opened from the courier) and its parcels.
function pickupSummary(p) {
  return section('Pickup scheduled',
    notice('ok', `The courier collects ${p.shipments.length} ${p.shipments.length === 1 ? 'parcel' : 'parcels'} on ${fmtTime(p.pickupScheduledFor)}.`),
    facts([
      ['Pickup', fmtTime(p.pickupScheduledFor)],
      ['Manifest', p.manifestUrl ? h('a', { href: p.manifestUrl, target: '_blank', rel: 'noopener', 'data-external': '' }, 'Manifest (PDF)') : '—'],
    ]),
    h('ul', { class: 'manifest plain' }, p.shipments.map((s) => h('li', {}, s.orderNumber || '', ' ', h('span', {}, s.awb || '—'), ' ', h('span', { class: 'muted' }, s.courierName)))));
}
