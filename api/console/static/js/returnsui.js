// Returns (docs/DECISIONS.md "Returns") as the order page and the returns pages show
// them: a return's lines, its actions by status (approve, reject, cancel
// once approved, receive with restock, refund), the reason of a rejection,
// and the form that opens a return for any order with shipped units, a
// partly fulfilled one included.

import { h } from './dom.js';
import { api, keyedSender } from './api.js';
import { form } from './forms.js';
import { allowed } from './perm.js';
import { badge, button, confirm, facts, link, section, table, errorNotice } from './ui.js';
import { formatMoney } from './money.js';
import { fmtTime, fmtDay, label } from './format.js';
import { session } from './session.js';
import { locationSelect } from './locationselect.js';

const REASONS = ['damaged', 'wrong_item', 'not_as_described', 'no_longer_needed', 'other'];

// LIVE are the return statuses that hold units.
const LIVE = new Set(['requested', 'approved', 'received', 'refunded']);

/**
 * lineName names an order line by its product and variant: "Tee — M / Black
 * (TEE-M-BLK)"; variants maps variant ids to their names (sources.names).
 */
export function lineName(order, itemId, variants = new Map()) {
  const line = order && (order.items || []).find((l) => l.id === itemId);
  if (!line) return 'a line no longer on the order';
  const v = line.variantId && variants.get(line.variantId);
  return v ? `${v.label} (${line.sku})` : `${line.title} (${line.sku})`;
}

/** returnName names a return by its order and the day it was opened. */
export function returnName(ret, orderNumber) {
  return `Return of ${fmtDay(ret.createdAt.slice(0, 10))}${orderNumber ? ` for ${orderNumber}` : ''}`;
}

/** returnCard shows one return with the actions its status allows; after one, onChange() redraws. */
export function returnCard(ret, order, onChange, { heading = true, variants } = {}) {
  const lineTitle = (o, itemId) => lineName(o, itemId, variants);
  const cur = (order && order.currency) || session.settings.currency;
  const status = h('div', { class: 'form-status' });
  const act = async (fn, flash) => {
    try {
      await fn();
      session.flash = flash;
      onChange();
    } catch (err) {
      status.replaceChildren(errorNotice(err));
    }
  };
  // Every move sends an Idempotency-Key, renewed after each definite answer.
  const keys = keyedSender();
  const post = (verb) => keys.send((key) => api('POST', `/returns/${ret.id}/${verb}`, undefined, { headers: { 'Idempotency-Key': key } }));
  const actions = [];
  if (ret.status === 'requested' && allowed('POST', '/returns/{}/approve')) {
    actions.push(button('Approve', () => act(() => post('approve'), 'Return approved.'), { kind: 'primary' }));
  }
  const forms = [];
  if (ret.status === 'requested' && allowed('POST', '/returns/{}/reject')) {
    forms.push(h('details', {}, h('summary', {}, 'Reject…'), form({
      label: 'Reject return', fields: [{ name: 'reason', label: 'Reason', type: 'textarea', required: true, maxlength: 1000 }],
      submit: 'Reject return', kind: 'danger',
      onSubmit: (v, { key }) => api('POST', `/returns/${ret.id}/reject`, v, { headers: { 'Idempotency-Key': key } }),
      done: () => { session.flash = 'Return rejected.'; onChange(); },
    })));
  }
  if (ret.status === 'approved' && allowed('POST', '/returns/{}/receive')) {
    forms.push(h('details', { open: true }, h('summary', {}, 'Receive the returned units'), receiveForm(ret, order, onChange, lineTitle)));
  }
  if (ret.status === 'approved' && allowed('POST', '/returns/{}/cancel')) {
    actions.push(button('Cancel return', async () => {
      if (await confirm('Cancel this return? Its units were not sent back; they may be returned again later.', 'Cancel return', 'Keep return')) {
        act(() => post('cancel'), 'Return cancelled.');
      }
    }, { kind: 'danger' }));
  }
  if (ret.status === 'received' && allowed('POST', '/returns/{}/refund')) {
    if (order && order.paymentMethod && order.paymentMethod !== 'online') {
      // Money not taken through the gateway (cash on delivery, offline) goes
      // back by hand, with the transfer's reference (docs/DECISIONS.md "Cash
      // on delivery and offline payments").
      forms.push(h('details', { open: true }, h('summary', {}, `Refund ${formatMoney(ret.refundAmount, cur)} by hand`), form({
        label: 'Refund return by hand',
        fields: [{ name: 'reference', label: 'Reference of the money paid back (e.g. the UTR)', required: true, maxlength: 100 }],
        confirm: (v) => ({ message: `Record a refund of ${formatMoney(ret.refundAmount, cur)}, paid back by hand (reference ${v.reference})?`,
          yes: `Refund ${formatMoney(ret.refundAmount, cur)}`, no: 'Don\'t refund' }),
        submit: 'Record refund',
        onSubmit: (v, { key }) => api('POST', `/returns/${ret.id}/refund`, { method: 'manual', reference: v.reference },
          { headers: { 'Idempotency-Key': key } }),
        done: () => { session.flash = 'Return refunded.'; onChange(); },
      })));
    } else {
      // A refund the gateway refused is tried again with a new key; a click
      // whose answer was lost, with the same one.
      actions.push(button(`Refund ${formatMoney(ret.refundAmount, cur)}`, async () => {
        if (await confirm(`Refund ${formatMoney(ret.refundAmount, cur)} to the customer through the payment provider?`,
          `Refund ${formatMoney(ret.refundAmount, cur)}`, 'Don\'t refund')) {
          act(() => post('refund'), 'Return refunded.');
        }
      }, { kind: 'primary' }));
    }
  }
  return h('article', { class: 'return', dataset: { returnId: ret.id, status: ret.status } },
    heading ? h('h3', {}, link('/returns/' + ret.id, returnName(ret)), ' ', badge(ret.status)) : null,
    facts([
      ['Opened', `${fmtTime(ret.createdAt)} by ${ret.requestedBy === 'customer' ? 'the customer' : 'the shop'}`],
      ret.status === 'rejected' ? ['Rejected because', ret.rejectReason || '—'] : null,
      ['Refund', formatMoney(ret.refundAmount, cur)],
      ['Refund shipping', ret.refundShipping ? 'Yes' : 'No'],
      ret.note ? ['Note', ret.note] : null,
    ]),
    table([
      { label: 'Item', cell: (it) => lineTitle(order, it.orderItemId) },
      { label: 'Quantity', class: 'num', cell: (it) => String(it.quantity) },
      { label: 'Reason', cell: (it) => label(it.reason) },
      { label: 'Refund', class: 'num', cell: (it) => formatMoney(it.refundAmount, cur) },
      { label: 'Restocked', cell: (it) => (it.restocked ? 'Yes' : 'No') },
    ], ret.items || []),
    status,
    actions.length ? h('div', { class: 'actions' }, actions) : null,
    forms);
}

function receiveForm(ret, order, onChange, lineTitle) {
  const rows = (ret.items || []).map((it) => {
    const qty = h('input', { type: 'number', min: 0, max: it.quantity, value: it.quantity, name: `receive-qty-${it.orderItemId}`, 'aria-label': `Units received of ${lineTitle(order, it.orderItemId)}` });
    const restock = h('input', { type: 'checkbox', checked: true, name: `restock-${it.orderItemId}`, 'aria-label': `Restock ${lineTitle(order, it.orderItemId)}` });
    return { it, qty, restock, row: h('tr', {}, h('td', {}, lineTitle(order, it.orderItemId)), h('td', {}, qty), h('td', {}, restock)) };
  });
  const receive = form({
    label: 'Receive return',
    fields: [{ name: 'refundShipping', label: 'Also refund the shipping charge', type: 'checkbox', value: ret.refundShipping }],
    extra: [allowed('GET', '/locations') ? locationSelect('Restock into', 'Where the order shipped from') : null,
      h('table', { class: 'data compact' }, h('thead', {}, h('tr', {}, h('th', {}, 'Item'), h('th', {}, 'Received'), h('th', {}, 'Restock'))),
        h('tbody', {}, rows.map((r) => r.row)))],
    submit: 'Mark received',
    onSubmit: (v, { key }) => api('POST', `/returns/${ret.id}/receive`, {
      ...v,
      locationId: receive.querySelector('select[name=locationId]')?.value || undefined,
      items: rows.map((r) => ({ orderItemId: r.it.orderItemId, quantity: Number(r.qty.value), restock: r.restock.checked })),
    }, { headers: { 'Idempotency-Key': key } }),
    done: () => { session.flash = 'Return received.'; onChange(); },
  });
  return receive;
}

/**
 * returnable is, per order line, the units an admin may still return: those
 * shipped in live fulfilments less those in live returns.
 */
export function returnable(order, returns) {
  const left = new Map();
  for (const f of order.fulfillments || []) {
    if (f.status === 'cancelled') continue;
    for (const it of f.items || []) left.set(it.orderItemId, (left.get(it.orderItemId) || 0) + it.quantity);
  }
  for (const r of returns) {
    if (!LIVE.has(r.status)) continue;
    for (const it of r.items || []) left.set(it.orderItemId, (left.get(it.orderItemId) || 0) - it.quantity);
  }
  return left;
}

/** newReturnForm opens a return of the units of order still returnable. */
function newReturnForm(order, left, onChange, lineTitle) {
  const rows = (order.items || []).filter((line) => (left.get(line.id) || 0) > 0).map((line) => {
    const max = left.get(line.id);
    const name = lineTitle(order, line.id);
    const qty = h('input', { type: 'number', min: 0, max, value: 0, name: `return-qty-${line.id}`, 'aria-label': `Units of ${name} to return, of ${max}` });
    const reason = h('select', { name: `return-reason-${line.id}`, 'aria-label': `Reason for ${name}` }, REASONS.map((r) => h('option', { value: r }, label(r))));
    return { line, qty, reason, row: h('tr', {}, h('td', {}, name), h('td', { class: 'num' }, String(max)), h('td', {}, qty), h('td', {}, reason)) };
  });
  return form({
    label: 'New return',
    fields: [{ name: 'note', label: 'Note', type: 'textarea', maxlength: 1000 }],
    extra: h('table', { class: 'data compact' }, h('thead', {}, h('tr', {}, h('th', {}, 'Item'), h('th', { class: 'num' }, 'Returnable'),
      h('th', {}, 'Units'), h('th', {}, 'Reason'))), h('tbody', {}, rows.map((r) => r.row))),
    submit: 'Open return',
    onSubmit: (v, { key }) => api('POST', `/orders/${order.id}/returns`, {
      ...v,
      items: rows.filter((r) => Number(r.qty.value) > 0)
        .map((r) => ({ orderItemId: r.line.id, quantity: Number(r.qty.value), reason: r.reason.value })),
    }, { headers: { 'Idempotency-Key': key } }),
    done: () => { session.flash = 'Return opened.'; onChange(); },
  });
}

/** loadReturns reads the returns of order ({list} or {error}); null on a server without returns. */
export async function loadReturns(order) {
  if (!allowed('GET', '/returns')) return null;
  try {
    return { list: (await api('GET', `/returns?orderId=${order.id}&limit=100`)).data || [] };
  } catch (error) {
    return { list: [], error };
  }
}

/** orderReturns is the order page's returns section (loaded by loadReturns), or null. */
export function orderReturns(order, loaded, onChange, variants) {
  if (!loaded) return null;
  if (loaded.error) return section('Returns', errorNotice(loaded.error));
  const list = loaded.list;
  const lineTitle = (o, itemId) => lineName(o, itemId, variants);
  const left = returnable(order, list);
  const open = [...left.values()].some((n) => n > 0);
  return section('Returns',
    list.length ? list.map((r) => returnCard(r, order, onChange, { variants })) : h('p', { class: 'empty' }, 'No returns for this order.'),
    allowed('POST', '/orders/{}/returns') && open
      ? h('details', {}, h('summary', {}, 'Open a return…'), newReturnForm(order, left, onChange, lineTitle)) : null);
}
