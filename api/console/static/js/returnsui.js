// Returns (API-DECISIONS 13) as the order page and the returns pages show
// them: a return's lines, its actions by status (approve, reject, receive
// with restock, refund), and the form that opens a return for an order.

import { h } from './dom.js';
import { api, keyedSender } from './api.js';
import { form } from './forms.js';
import { allowed } from './perm.js';
import { badge, button, confirm, facts, link, section, table, errorNotice } from './ui.js';
import { formatMoney } from './money.js';
import { fmtTime, label } from './format.js';
import { session } from './session.js';

const REASONS = ['damaged', 'wrong_item', 'not_as_described', 'no_longer_needed', 'other'];

function lineTitle(order, itemId) {
  const line = order && (order.items || []).find((l) => l.id === itemId);
  return line ? `${line.title} (${line.sku})` : itemId;
}

/** returnCard shows one return with the actions its status allows; after one, onChange() redraws. */
export function returnCard(ret, order, onChange, { heading = true } = {}) {
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
  const actions = [];
  if (ret.status === 'requested' && allowed('POST', '/returns/{}/approve')) {
    actions.push(button('Approve', () => act(() => api('POST', `/returns/${ret.id}/approve`), 'Return approved.'), { kind: 'primary' }));
  }
  const forms = [];
  if (ret.status === 'requested' && allowed('POST', '/returns/{}/reject')) {
    forms.push(h('details', {}, h('summary', {}, 'Reject…'), form({
      label: 'Reject return', fields: [{ name: 'reason', label: 'Reason', type: 'textarea', required: true, maxlength: 1000 }],
      submit: 'Reject return', kind: 'danger',
      onSubmit: (v) => api('POST', `/returns/${ret.id}/reject`, v),
      done: () => { session.flash = 'Return rejected.'; onChange(); },
    })));
  }
  if (ret.status === 'approved' && allowed('POST', '/returns/{}/receive')) {
    forms.push(h('details', { open: true }, h('summary', {}, 'Receive the returned units'), receiveForm(ret, order, onChange)));
  }
  if (ret.status === 'received' && allowed('POST', '/returns/{}/refund')) {
    // One key per attempt: a refused refund (the gateway said no) is tried
    // again with a new key, a click whose answer was lost with the same one.
    const keys = keyedSender();
    actions.push(button(`Refund ${formatMoney(ret.refundAmount, cur)}`, async () => {
      if (await confirm(`Refund ${formatMoney(ret.refundAmount, cur)} to the customer through the payment provider?`, 'Refund')) {
        act(() => keys.send((key) => api('POST', `/returns/${ret.id}/refund`, undefined, { headers: { 'Idempotency-Key': key } })), 'Return refunded.');
      }
    }, { kind: 'primary' }));
  }
  return h('article', { class: 'return', dataset: { returnId: ret.id, status: ret.status } },
    heading ? h('h3', {}, link('/returns/' + ret.id, `Return ${ret.id.slice(0, 8)}`), ' ', badge(ret.status)) : null,
    facts([
      ['Opened', fmtTime(ret.createdAt)],
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

function receiveForm(ret, order, onChange) {
  const rows = (ret.items || []).map((it) => {
    const qty = h('input', { type: 'number', min: 0, max: it.quantity, value: it.quantity, name: `receive-qty-${it.orderItemId}`, 'aria-label': `Units received of ${lineTitle(order, it.orderItemId)}` });
    const restock = h('input', { type: 'checkbox', checked: true, name: `restock-${it.orderItemId}`, 'aria-label': `Restock ${lineTitle(order, it.orderItemId)}` });
    return { it, qty, restock, row: h('tr', {}, h('td', {}, lineTitle(order, it.orderItemId)), h('td', {}, qty), h('td', {}, restock)) };
  });
  return form({
    label: 'Receive return',
    fields: [{ name: 'refundShipping', label: 'Also refund the shipping charge', type: 'checkbox', value: ret.refundShipping }],
    extra: h('table', { class: 'data compact' }, h('thead', {}, h('tr', {}, h('th', {}, 'Item'), h('th', {}, 'Received'), h('th', {}, 'Restock'))),
      h('tbody', {}, rows.map((r) => r.row))),
    submit: 'Mark received',
    onSubmit: (v) => api('POST', `/returns/${ret.id}/receive`, {
      ...v,
      items: rows.map((r) => ({ orderItemId: r.it.orderItemId, quantity: Number(r.qty.value), restock: r.restock.checked })),
    }),
    done: () => { session.flash = 'Return received.'; onChange(); },
  });
}

/** newReturnForm opens a return for an order (any shipped unit, no window). */
function newReturnForm(order, onChange) {
  const rows = (order.items || []).map((line) => {
    const qty = h('input', { type: 'number', min: 0, max: line.quantity, value: 0, name: `return-qty-${line.id}`, 'aria-label': `Units of ${line.title} (${line.sku}) to return` });
    const reason = h('select', { name: `return-reason-${line.id}`, 'aria-label': `Reason for ${line.title} (${line.sku})` }, REASONS.map((r) => h('option', { value: r }, label(r))));
    return { line, qty, reason, row: h('tr', {}, h('td', {}, `${line.title} (${line.sku})`), h('td', {}, qty), h('td', {}, reason)) };
  });
  return form({
    label: 'New return',
    fields: [{ name: 'note', label: 'Note', type: 'textarea', maxlength: 1000 }],
    extra: h('table', { class: 'data compact' }, h('thead', {}, h('tr', {}, h('th', {}, 'Item'), h('th', {}, 'Units'), h('th', {}, 'Reason'))),
      h('tbody', {}, rows.map((r) => r.row))),
    submit: 'Open return',
    onSubmit: (v) => api('POST', `/orders/${order.id}/returns`, {
      ...v,
      items: rows.filter((r) => Number(r.qty.value) > 0)
        .map((r) => ({ orderItemId: r.line.id, quantity: Number(r.qty.value), reason: r.reason.value })),
    }),
    done: () => { session.flash = 'Return opened.'; onChange(); },
  });
}

/** orderReturns is the order page's returns section, or null on a server without returns. */
export async function orderReturns(order, onChange) {
  if (!allowed('GET', '/returns')) return null;
  let res;
  try {
    res = await api('GET', `/returns?orderId=${order.id}&limit=100`);
  } catch (err) {
    return section('Returns', errorNotice(err));
  }
  const list = res.data || [];
  return section('Returns',
    list.length ? list.map((r) => returnCard(r, order, onChange)) : h('p', { class: 'empty' }, 'No returns for this order.'),
    allowed('POST', '/orders/{}/returns') && ['shipped', 'delivered'].includes(order.status)
      ? h('details', {}, h('summary', {}, 'Open a return…'), newReturnForm(order, onChange)) : null);
}
