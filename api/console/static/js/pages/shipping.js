// Shipping zones (by Indian state, one default zone) and their methods
// (docs/DECISIONS.md "Shipping"): price GST-inclusive, free above a cart total,
// delivery estimate.

import { h } from '../dom.js';
import { api } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, table, badge, button, confirm, errorNotice, openDialog, facts, notice } from '../ui.js';
import { formatMoney, formatRate } from '../money.js';
import { session, currency } from '../session.js';

const zoneFields = (zone) => [
  { name: 'name', label: 'Zone name', required: true, maxlength: 100 },
  { name: 'isDefault', label: 'Default zone (covers every state no other zone names)', type: 'checkbox' },
  { name: 'states', label: 'States', type: 'checkboxes', wide: true,
    options: [...new Set([...(session.settings.states || []), ...((zone && zone.states) || [])])] },
];

const methodFields = () => [
  { name: 'name', label: 'Name', required: true, maxlength: 100 },
  { name: 'carrier', label: 'Carrier', maxlength: 100 },
  { name: 'price', label: `Price (${currency()}, GST included)`, type: 'money', required: true },
  { name: 'freeAbove', label: 'Free from a cart total of', type: 'money', nullable: true, help: 'Empty: never free.' },
  { name: 'gstRate', label: 'GST rate (%)', type: 'rate' },
  { name: 'minDays', label: 'Delivery in at least (days)', type: 'number', min: 0 },
  { name: 'maxDays', label: 'Delivery in at most (days)', type: 'number', min: 0 },
  { name: 'isActive', label: 'Offered at checkout', type: 'checkbox' },
];

// offers reports whether a zone has a method checkout offers.
function offers(z) {
  return (z.methods || []).some((m) => m.isActive);
}

export async function shippingPage({ rerender }) {
  const res = await api('GET', '/shipping/zones?limit=100');
  const zones = res.data || [];
  // Once any zone offers a method, checkout requires one:
  // a shopper in a zone that offers none cannot check out.
  const blocked = (z) => zones.some(offers) && !offers(z);
  const status = h('div', { class: 'form-status' });
  const cur = currency();
  const dialog = (title, fields, values, method, path, flash, patch) => {
    const close = openDialog(title, form({
      label: title, fields, values, patch, submit: 'Save',
      onSubmit: (v) => api(method, path, v),
      done: () => { close(); session.flash = flash; rerender(); },
    }));
  };
  const run = async (call, flash) => {
    try {
      await call();
      session.flash = flash;
      rerender();
    } catch (err) { status.replaceChildren(errorNotice(err)); }
  };
  const canZone = allowed('POST', '/shipping/zones');
  return [
    pageHead('Shipping', canZone ? button('New zone', () => dialog('New zone', zoneFields(null), { states: [] }, 'POST', '/shipping/zones', 'Zone created.'), { kind: 'primary' }) : null),
    h('p', { class: 'muted' }, 'Checkout charges the price of the method the customer picks from their state\'s zone. Prices include GST at the method\'s rate.'),
    status,
    zones.length ? null : h('p', { class: 'empty' }, 'No zones: checkout takes the shipping cost the client sends until a method exists.'),
    zones.some(blocked) ? notice('error', `Checkout refuses the states of ${zones.filter(blocked).map((z) => z.name).join(', ')}: `,
      'a zone without an active method offers no shipping. Add or turn on a method, or delete the zone.') : null,
    zones.map((z) => section(z.name,
      z.isDefault ? badge('default') : null,
      blocked(z) ? h('p', { class: 'flag', dataset: { blocked: z.id } }, badge('no_active_method'),
        ' No active method: checkout cannot ship to ', z.isDefault && !z.states.length ? 'the states no other zone names' : 'these states', '.') : null,
      facts([['States', z.isDefault && !z.states.length ? 'Every state no other zone names' : (z.states.join(', ') || '—')]]),
      table([
        { label: 'Method', cell: (m) => h('span', {}, m.name, m.carrier ? h('span', { class: 'muted' }, ' · ' + m.carrier) : null) },
        { label: 'Price', class: 'num', cell: (m) => formatMoney(m.price, cur) },
        { label: 'Free from', class: 'num', cell: (m) => (m.freeAbove === null || m.freeAbove === undefined ? '—' : formatMoney(m.freeAbove, cur)) },
        { label: 'GST', class: 'num', cell: (m) => formatRate(m.gstRate) },
        { label: 'Days', class: 'num', cell: (m) => `${m.minDays}–${m.maxDays}` },
        { label: 'State', cell: (m) => badge(m.isActive ? 'active' : 'inactive') },
        allowed('PATCH', '/shipping/methods/{}') ? { label: 'Actions', cell: (m) => h('span', { class: 'row-actions' },
          button('Edit', () => dialog(`Edit ${m.name}`, methodFields(), m, 'PATCH', `/shipping/methods/${m.id}`, 'Method saved.', true), { kind: 'small' }),
          allowed('DELETE', '/shipping/methods/{}') ? button('Delete', async () => {
            if (await confirm(`Delete the method ${m.name}?`, 'Delete method', 'Keep method')) run(() => api('DELETE', `/shipping/methods/${m.id}`), 'Method deleted.');
          }, { kind: 'small danger' }) : null) } : null,
      ].filter(Boolean), z.methods || [], { empty: 'No methods in this zone.' }),
      h('div', { class: 'actions' },
        allowed('POST', '/shipping/zones/{}/methods')
          ? button('Add method', () => dialog(`New method in ${z.name}`, methodFields(), { gstRate: '18', isActive: true, minDays: '2', maxDays: '5' }, 'POST', `/shipping/zones/${z.id}/methods`, 'Method added.'))
          : null,
        allowed('PATCH', '/shipping/zones/{}') ? button('Edit zone', () => dialog(`Edit ${z.name}`, zoneFields(z), z, 'PATCH', `/shipping/zones/${z.id}`, 'Zone saved.', true)) : null,
        allowed('DELETE', '/shipping/zones/{}') ? button('Delete zone', async () => {
          if (await confirm(`Delete the zone ${z.name} and its methods?`, 'Delete zone', 'Keep zone')) run(() => api('DELETE', `/shipping/zones/${z.id}`), 'Zone deleted.');
        }, { kind: 'danger' }) : null))),
  ];
}
