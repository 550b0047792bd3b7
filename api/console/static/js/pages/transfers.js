// Stock transfers between locations (docs/DECISIONS.md "Stock locations"):
// units leave the source when the transfer is made, reach the destination
// when it is received, and go back to the source when it is cancelled.

import { h } from '../dom.js';
import { api, keyedSender, query as qs, referenceList } from '../api.js';
import { form, filters } from '../forms.js';
import { allowed } from '../perm.js';
import { setQuery } from '../router.js';
import { pageHead, table, pager, badge, button, confirm, errorNotice, openDialog } from '../ui.js';
import { fmtTime } from '../format.js';
import { session } from '../session.js';
import { names } from '../sources.js';
import { linesEditor } from '../lines.js';

const STATUSES = [['', 'Any status'], ['in_transit', 'In transit'], ['partially_received', 'Partly received'], ['received', 'Received'], ['cancelled', 'Cancelled']];
const OPEN = new Set(['in_transit', 'partially_received']);

export async function transfersPage({ query, rerender }) {
  const f = { status: query.get('status') || '' };
  const page = query.get('page') || '1';
  const [res, locations] = await Promise.all([api('GET', '/inventory/transfers' + qs({ ...f, page, limit: 20 })), referenceList('/locations')]);
  const variants = await names.variants(res.data.flatMap((t) => t.items.map((it) => it.variantId)));
  const place = (id) => (locations.find((l) => l.id === id) || { name: 'a deleted location' }).name;
  const status = h('div', { class: 'form-status' });
  const keys = keyedSender();
  const act = (t, verb, flash) => async () => {
    try {
      await keys.send((key) => api('POST', `/inventory/transfers/${t.id}/${verb}`, undefined, { headers: { 'Idempotency-Key': key } }));
      session.flash = flash;
      rerender();
    } catch (err) { status.replaceChildren(errorNotice(err)); }
  };
  const canAct = (verb) => allowed('POST', `/inventory/transfers/{}/${verb}`);
  const create = allowed('POST', '/inventory/transfers')
    ? button('New transfer', () => newTransfer(locations, rerender), { kind: 'primary' }) : null;
  return [
    pageHead('Transfers', create),
    filters({ label: 'Filter transfers', values: f, fields: [{ name: 'status', label: 'Status', type: 'select', options: STATUSES }],
      submit: 'Filter', onSubmit: async (v) => setQuery(v), done: () => {} }),
    status,
    table([
      { label: 'Made', cell: (t) => fmtTime(t.createdAt) },
      { label: 'From', cell: (t) => place(t.fromLocationId) },
      { label: 'To', cell: (t) => place(t.toLocationId) },
      { label: 'Units', cell: (t) => h('ul', { class: 'plain' }, t.items.map((it) =>
        h('li', {}, `${it.quantity} × ${(variants.get(it.variantId) || { label: 'a deleted variant' }).label}`,
          t.status === 'partially_received' || (t.status === 'cancelled' && it.received) ? ` (${it.received} received)` : ''))) },
      { label: 'Note', cell: (t) => t.note || '—' },
      { label: 'Status', cell: (t) => h('span', {}, badge(t.status), t.receivedAt ? ` ${fmtTime(t.receivedAt)}` : '', t.cancelledAt ? ` ${fmtTime(t.cancelledAt)}` : '') },
      { label: 'Actions', cell: (t) => (!OPEN.has(t.status) ? '' : h('span', { class: 'row-actions' },
        canAct('receive') ? button('Receive', () => receiveTransfer(t, variants, place(t.toLocationId), rerender),
          { kind: 'small', attrs: { 'aria-label': `Receive the transfer to ${place(t.toLocationId)} made ${fmtTime(t.createdAt)}` } }) : null,
        canAct('cancel') ? button('Cancel', async () => {
          if (await confirm(`Cancel this transfer? Its units go back to ${place(t.fromLocationId)}.`, 'Cancel transfer', 'Keep transfer')) await act(t, 'cancel', 'Transfer cancelled; its units are back at the source.')();
        }, { kind: 'small danger', attrs: { 'aria-label': `Cancel the transfer from ${place(t.fromLocationId)} made ${fmtTime(t.createdAt)}` } }) : null)) },
    ], res.data, { empty: 'No transfers match.', caption: 'Transfers' }),
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), 'transfers'),
  ];
}

// receiveTransfer opens the form of a receipt: the units that arrived of
// each item, all that is still in transit unless changed.
function receiveTransfer(t, variants, to, rerender) {
  const rows = t.items.map((it) => {
    const left = it.quantity - (it.received || 0);
    const label = (variants.get(it.variantId) || { label: 'a deleted variant' }).label;
    const qty = h('input', { type: 'number', min: 0, max: left, value: left, name: `receive-qty-${it.variantId}`, 'aria-label': `Units arrived of ${label}` });
    return { it, left, qty, row: h('tr', {}, h('td', {}, label), h('td', {}, String(left)), h('td', {}, qty)) };
  });
  const close = openDialog('Receive transfer', form({
    label: 'Receive transfer',
    fields: [],
    extra: h('table', { class: 'data compact' }, h('thead', {}, h('tr', {}, h('th', {}, 'Item'), h('th', {}, 'In transit'), h('th', {}, 'Arrived'))),
      h('tbody', {}, rows.map((r) => r.row))),
    submit: 'Receive units',
    onSubmit: (v, { key }) => {
      const all = rows.every((r) => Number(r.qty.value) === r.left);
      const items = rows.filter((r) => Number(r.qty.value) > 0).map((r) => ({ variantId: r.it.variantId, quantity: Number(r.qty.value) }));
      return api('POST', `/inventory/transfers/${t.id}/receive`, all ? undefined : { items }, { headers: { 'Idempotency-Key': key } });
    },
    done: () => { close(); session.flash = `Units received at ${to}.`; rerender(); },
  }));
}

// newTransfer opens the form of a transfer: two locations, lines, a note.
function newTransfer(locations, rerender) {
  const choices = [['', 'Pick a location'], ...locations.filter((l) => l.isActive).map((l) => [l.id, `${l.name} (${l.code})`])];
  const lines = linesEditor({ label: 'Add a variant' });
  const close = openDialog('New transfer', form({
    label: 'New transfer',
    fields: [
      { name: 'fromLocationId', label: 'From', type: 'select', required: true, options: choices },
      { name: 'toLocationId', label: 'To', type: 'select', required: true, options: choices },
      { name: 'note', label: 'Note', maxlength: 500, wide: true },
    ],
    extra: lines,
    submit: 'Send units',
    onSubmit: (v, { key }) => api('POST', '/inventory/transfers', { ...v, items: lines.lines() }, { headers: { 'Idempotency-Key': key } }),
    done: () => { close(); session.flash = 'Transfer made: its units left the source.'; rerender(); },
  }));
}
