// Courier settings (docs/DECISIONS.md "Couriers"): which courier the server
// books with (CARRIER, set in its configuration and shown read-only here),
// and each location's pickup code, its pickup location's name at the
// courier: a fulfilment from a location with one is booked with the
// courier; from one without, staff type the carrier and tracking number.

import { h } from '../dom.js';
import { api } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, facts, notice, badge, table } from '../ui.js';
import { session } from '../session.js';

// CARRIERS names each CARRIER value as staff know it.
const CARRIERS = { manual: 'None (staff type tracking numbers)', shiprocket: 'Shiprocket', simulator: 'Courier simulator (testing)' };

function place(l) {
  return [l.address.city, l.address.pincode].filter(Boolean).join(' ') || '—';
}

export async function courierSettingsPage({ rerender }) {
  const [c, locations] = await Promise.all([
    api('GET', '/settings/courier'),
    allowed('GET', '/locations') ? api('GET', '/locations?limit=100').then((r) => r.data) : [],
  ]);
  const canEdit = allowed('PATCH', '/locations/{}');
  const books = (l) => c.booksShipments && Boolean(l.pickupCode);
  return [
    pageHead('Courier settings'),
    c.booksShipments
      ? notice('ok', `Fulfilments from a location with a pickup code are booked with ${CARRIERS[c.carrier] || c.carrier}: it gives the AWB and the label.`)
      : notice('info', 'No courier is configured: staff type the carrier and tracking number of each fulfilment.'),
    section('Courier', facts([
      ['Courier', CARRIERS[c.carrier] || c.carrier],
      ['Tracking webhook', c.webhookTokenSet ? c.webhookPath : `${c.webhookPath}: no token set, every scan is refused`],
      ['Shipment without a scan flagged after', `${c.shipmentStaleDays} days`],
      ['COD delivered but unpaid flagged after', `${c.codRemitDays} days`],
    ]), h('p', { class: 'help' }, 'Set in the server\'s configuration (CARRIER and its variables); a restart applies a change.')),
    section('Pickup codes',
      h('p', { class: 'help' }, 'The name of each location\'s pickup address at the courier, exactly as registered there. Empty: fulfilments from it are not booked.'),
      canEdit
        ? h('div', { class: 'pickup-codes' }, locations.map((l) => h('div', { class: 'pickup-code' },
          h('p', {}, h('strong', {}, l.name), ' ', h('span', { class: 'muted' }, `${l.code} · ${place(l)}`), ' ',
            badge(books(l) ? 'booked_with_courier' : 'tracking_typed_by_staff')),
          form({
            label: `Pickup code of ${l.name}`, class: 'inline', patch: true, submit: 'Save',
            fields: [{ name: 'pickupCode', label: `Pickup code of ${l.name}`, maxlength: 64, nullable: true }],
            values: { pickupCode: l.pickupCode || '' },
            onSubmit: (v, { key }) => api('PATCH', `/locations/${l.id}`, v, { headers: { 'Idempotency-Key': key } }),
            done: (saved) => {
              session.flash = saved.pickupCode ? `Fulfilments from ${l.name} are booked from pickup location ${saved.pickupCode}.` : `Fulfilments from ${l.name} are no longer booked with the courier.`;
              rerender();
            },
          }))))
        : table([
          { label: 'Location', cell: (l) => h('span', {}, l.name, ' ', h('span', { class: 'muted' }, l.code)) },
          { label: 'Address', cell: place },
          { label: 'Pickup code', cell: (l) => l.pickupCode || '—' },
          { label: 'Booked', cell: (l) => (books(l) ? 'Yes' : 'No') },
        ], locations, { empty: 'No locations.', caption: 'Pickup codes' })),
  ];
}
