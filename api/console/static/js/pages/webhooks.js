// Outbound webhooks: subscriptions, their delivery log with each attempt,
// and test sends.

import { h } from '../dom.js';
import { api, query as qs } from '../api.js';
import { filters } from '../forms.js';
import { allowed } from '../perm.js';
import { setQuery } from '../router.js';
import { crudPage } from '../crud.js';
import { pageHead, section, table, link, pager, badge, facts, button, errorNotice, openDialog, notice } from '../ui.js';
import { fmtTime } from '../format.js';
import { session } from '../session.js';

const fields = () => [
  { name: 'url', label: 'URL', type: 'url', required: true, maxlength: 2000, wide: true },
  { name: 'events', label: 'Events', type: 'checkboxes', options: session.settings.eventTypes || [], wide: true },
  { name: 'description', label: 'Description', maxlength: 500 },
  { name: 'secret', label: 'Signing secret', type: 'password', autocomplete: 'new-password', help: 'Left empty, the server makes one and shows it once.' },
  { name: 'isActive', label: 'Active', type: 'checkbox' },
];

function showSecret(sub) {
  openDialog('Signing secret', h('div', {},
    notice('info', 'Copy this secret now: it is not shown again. Receivers verify each delivery with it (Standard Webhooks).'),
    h('p', {}, h('code', { class: 'secret' }, sub.secret))));
}

export async function webhooksPage({ query, rerender }) {
  return crudPage({
    title: 'Webhooks', noun: 'webhook', api: '/webhooks', route: '/webhooks/{}', query, rerender,
    name: (w) => w.url,
    columns: [
      { label: 'URL', cell: (w) => link('/webhooks/' + w.id, w.url) },
      { label: 'Events', cell: (w) => w.events.join(', ') },
      { label: 'State', cell: (w) => h('span', {}, badge(w.isActive ? 'active' : 'inactive'), w.disabledReason ? h('span', { class: 'muted' }, ' ' + w.disabledReason) : null) },
    ],
    defaults: { isActive: true, events: [] },
    values: (w) => ({ ...w, secret: '' }),
    fields,
    created: (sub) => {
      rerender();
      if (sub.secret) showSecret(sub);
    },
  });
}

export async function webhookPage({ params, query, rerender }) {
  const id = encodeURIComponent(params.id);
  const f = { status: query.get('status') || '' };
  const page = query.get('page') || '1';
  const [w, log] = await Promise.all([api('GET', '/webhooks/' + id), api('GET', `/webhooks/${id}/deliveries` + qs({ ...f, page, limit: 20 }))]);
  const status = h('div', { class: 'form-status' });
  return [
    pageHead(w.url, badge(w.isActive ? 'active' : 'inactive'), allowed('POST', '/webhooks/{}/test') ? button('Send a test', async () => {
      try {
        const r = await api('POST', `/webhooks/${id}/test`);
        session.flash = `Test delivery ${r.deliveryId.slice(0, 8)} queued; it appears below once attempted.`;
        rerender();
      } catch (err) { status.replaceChildren(errorNotice(err)); }
    }, { kind: 'primary' }) : null),
    status,
    section('Subscription', facts([['Events', w.events.join(', ')], ['Description', w.description || '—'],
      ['Disabled because', w.disabledReason], ['Created', fmtTime(w.createdAt)]])),
    section('Deliveries',
      filters({
        label: 'Filter deliveries', values: f,
        fields: [{ name: 'status', label: 'Status', type: 'select', options: [['', 'Any'], ['pending', 'Pending'], ['succeeded', 'Succeeded'], ['failed', 'Failed']] }],
        submit: 'Filter', onSubmit: async (v) => setQuery(v), done: () => {},
      }),
      table([
        { label: 'Event', cell: (d) => h('span', {}, d.eventType, h('br'), h('span', { class: 'muted' }, d.eventId)) },
        { label: 'Created', cell: (d) => fmtTime(d.createdAt) },
        { label: 'Status', cell: (d) => h('span', {}, badge(d.status), d.nextAttemptAt ? h('span', { class: 'muted' }, ` next ${fmtTime(d.nextAttemptAt)}`) : null) },
        { label: 'Attempts', cell: (d) => (d.attempts.length ? h('details', {}, h('summary', {}, `${d.attemptCount} attempt${d.attemptCount === 1 ? '' : 's'}`),
          h('ol', {}, d.attempts.map((a) => h('li', {}, `${fmtTime(a.createdAt)}: `, a.statusCode ? `HTTP ${a.statusCode}` : 'no answer',
            ` in ${a.durationMs} ms`, a.error ? h('span', { class: 'muted' }, ` — ${a.error}`) : null)))) : '0') },
      ], log.data, { empty: 'No deliveries yet.' }),
      pager(log.pagination, (n) => setQuery({ ...f, page: n }), 'deliveries')),
  ];
}
