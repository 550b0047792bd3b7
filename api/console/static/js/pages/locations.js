// Stock locations (docs/DECISIONS.md "Stock locations"): where units are
// kept, which of them ship online orders and in what order a fulfilment
// picks them (the lowest priority number first), and the GSTIN their
// invoices are issued under.

import { h } from '../dom.js';
import { crudPage } from '../crud.js';
import { badge } from '../ui.js';
import { session } from '../session.js';

// ADDRESS are the address's fields, shown flat in the form.
const ADDRESS = ['line1', 'city', 'state', 'pincode'];

function place(l) {
  return [l.address.city, l.address.state].filter(Boolean).join(', ') || '—';
}

export async function locationsPage({ query, rerender }) {
  return crudPage({
    title: 'Locations', noun: 'location', api: '/locations', route: '/locations/{}', query, rerender,
    intro: 'A fulfilment ships from the active location with the lowest priority number that holds all its units, unless the person fulfilling picks one.',
    name: (l) => l.name,
    columns: [
      // The name is what people call it; the code (what a transfer or an
      // import names) has a column of its own, so it never reads as the name.
      { label: 'Location', cell: (l) => h('span', {}, l.name, l.isDefault ? [' ', badge('default')] : null) },
      { label: 'Code', cell: (l) => h('code', {}, l.code) },
      { label: 'State', cell: place },
      { label: 'GSTIN', cell: (l) => l.gstin || h('span', { class: 'muted' }, 'the store\'s') },
      { label: 'Priority', class: 'num', cell: (l) => String(l.priority) },
      { label: 'Ships online', cell: (l) => (l.fulfilsOnline ? 'Yes' : 'No') },
      { label: 'Status', cell: (l) => badge(l.isActive ? 'active' : 'inactive') },
    ],
    values: (l) => ({ ...l, ...l.address, gstin: l.gstin || '', invoicePrefix: l.invoicePrefix || '', creditNotePrefix: l.creditNotePrefix || '', pickupCode: l.pickupCode || '' }),
    defaults: { priority: '100', fulfilsOnline: true, isActive: true },
    fields: (l) => [
      { name: 'name', label: 'Name', required: true, maxlength: 100 },
      { name: 'code', label: 'Code', required: true, maxlength: 32, help: 'A short name, e.g. BLR-1.' },
      { name: 'line1', label: 'Address', maxlength: 200, wide: true, nullable: true },
      { name: 'city', label: 'City', maxlength: 200, nullable: true },
      { name: 'state', label: 'State', type: 'select', required: true,
        options: [['', 'Pick a state'], ...new Set([...(session.settings.states || []), ...(l ? [l.address.state] : [])])] },
      { name: 'pincode', label: 'PIN code', maxlength: 6, inputmode: 'numeric', nullable: true },
      { name: 'gstin', label: 'GSTIN', maxlength: 15, nullable: true, help: 'Needed when the location is in another state than the store.' },
      { name: 'priority', label: 'Priority', type: 'number', min: 0, help: 'Lower numbers ship first.' },
      { name: 'fulfilsOnline', label: 'Ships online orders', type: 'checkbox' },
      { name: 'isActive', label: 'Active', type: 'checkbox' },
      { name: 'invoicePrefix', label: 'Invoice prefix', maxlength: 5, nullable: true, help: 'Empty: the store\'s.' },
      { name: 'creditNotePrefix', label: 'Credit note prefix', maxlength: 5, nullable: true },
      { name: 'pickupCode', label: 'Courier pickup code', maxlength: 64, nullable: true, help: 'The pickup location\'s name at the courier (CARRIER); set, fulfilments from here are booked with it.' },
    ],
    // The address goes as one object: every part of it when any changed.
    toBody: (v, l) => {
      const body = {};
      let moved = false;
      for (const [k, val] of Object.entries(v)) {
        if (ADDRESS.includes(k)) moved = true;
        else body[k] = val;
      }
      if (moved || !l) {
        const before = l ? l.address : {};
        body.address = Object.fromEntries(ADDRESS.map((k) => [k, k in v ? (v[k] ?? '') : (before[k] || '')]));
      }
      return body;
    },
  });
}
