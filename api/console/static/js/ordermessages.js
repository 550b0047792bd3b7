// An order's SMS and WhatsApp messages to its customer (GET
// /orders/{id}/messages): what was sent for which event, on which channel,
// to which phone, and how far it got (pending, sent, delivered, read,
// failed), with times in the console's format. The list is read when staff
// open it: the order page keeps to its budget of three admin requests
// (browser_ratelimit_test.go), and most visits to an order are not about
// its messages.

import { h, replace } from './dom.js';
import { api } from './api.js';
import { allowed } from './perm.js';
import { badge, section, table, errorNotice, loading } from './ui.js';
import { fmtTime } from './format.js';
import { eventName, channelName, phoneName } from './messagenames.js';

/** orderMessages is the messages section of order o (null when the role may not read them). */
export function orderMessages(o) {
  if (!allowed('GET', '/orders/{}/messages')) return null;
  const body = h('div', { class: 'order-messages', 'aria-live': 'polite' }, loading('Loading messages…'));
  const el = h('details', { class: 'order-messages-toggle' }, h('summary', {}, 'Show messages'), body);
  el.addEventListener('toggle', () => {
    if (!el.open || el.dataset.loaded) return;
    el.dataset.loaded = 'true';
    api('GET', `/orders/${encodeURIComponent(o.id)}/messages`)
      .then((r) => replace(body, table([
        { label: 'When', cell: (m) => fmtTime(m.createdAt) },
        { label: 'Message', cell: (m) => h('span', {}, eventName(m.event), h('br'), h('span', { class: 'muted' }, `template ${m.template}`)) },
        { label: 'Channel', cell: (m) => channelName(m.channel) },
        { label: 'To', cell: (m) => phoneName(m.to) },
        { label: 'Status', cell: (m) => h('span', {}, badge(m.status),
          m.statusAt && m.status !== 'pending' ? h('span', { class: 'muted' }, ' ' + fmtTime(m.statusAt)) : null,
          m.status === 'failed' && m.error ? h('span', { class: 'error', role: 'note' }, ' ' + m.error) : null) },
      ], r.data || [], { empty: 'No SMS or WhatsApp message for this order yet.', caption: 'Messages to the customer' })))
      .catch((err) => replace(body, errorNotice(err)));
  });
  return section('Messages to the customer', el);
}
