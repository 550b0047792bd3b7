// Pieces of the draft order page: its totals as the server computed them,
// and the ways to complete it (cash on delivery, an offline payment, or a
// payment link the customer pays).

import { h } from './dom.js';
import { api, keyedSender } from './api.js';
import { form } from './forms.js';
import { allowed } from './perm.js';
import { navigate } from './router.js';
import { table, facts, notice, button, errorNotice, link, badge, confirm } from './ui.js';
import { formatMoney, formatRate, toPaise, fromPaise } from './money.js';
import { fmtTime, fieldName } from './format.js';
import { session } from './session.js';
import { paymentLinkActions } from './linkshare.js';

/** draftTotals shows a draft's lines and totals from the server's answer. */
export function draftTotals(d) {
  const m = (v) => formatMoney(v, d.currency);
  const zero = (v) => Number(v) === 0;
  return h('div', { class: 'draft-totals', dataset: { total: String(d.total) } },
    d.issues.length ? notice('info', 'Not ready to complete: ', d.issues.map((i, n) => [n ? '; ' : '', `${fieldName(i.field)} ${i.issue}`]), '.') : null,
    d.discountMessage ? h('p', { class: 'muted' }, d.discountMessage) : null,
    d.discounts?.length ? h('ul', { class: 'applied-discounts', 'aria-label': 'Promotions applied' },
      d.discounts.map((x) => h('li', {}, x.title, ' ', h('span', { class: 'muted' }, x.type === 'free_shipping'
        ? (zero(x.amount) ? 'free shipping' : `free shipping (− ${m(x.amount)})`) : `− ${m(x.amount)}`)))) : null,
    table([
      { label: 'Item', cell: (l) => h('span', {}, l.title, ' ', h('span', { class: 'muted' }, l.sku), l.issue ? h('span', { class: 'field-error' }, ' ', l.issue) : null) },
      { label: 'Units', class: 'num', cell: (l) => String(l.quantity) },
      { label: 'Unit price', class: 'num', cell: (l) => m(l.unitPrice) },
      { label: 'Discount', class: 'num', cell: (l) => (zero(l.discountAmount) ? '—' : m(l.discountAmount)) },
      { label: 'GST', class: 'num', cell: (l) => formatRate(l.gstRate) },
      { label: 'Total', class: 'num', cell: (l) => m(l.lineTotal) },
    ], d.items, { empty: 'No lines.', caption: 'Lines as priced', compact: true }),
    facts([
      ['Subtotal', m(d.subtotal)],
      zero(d.discountTotal) ? null : ['Discount', `− ${m(d.discountTotal)}`],
      ['Shipping', d.shippingMethod ? `${m(d.shippingCost)} (${d.shippingMethod.name})` : m(d.shippingCost)],
      ['GST included', zero(d.igstTotal) ? `${m(d.taxTotal)} (CGST ${m(d.cgstTotal)}, SGST ${m(d.sgstTotal)})` : `${m(d.taxTotal)} (IGST)`],
      ['Total', h('strong', { class: 'total' }, m(d.total))],
      codTotalFact(d, m),
    ]));
}

// codTotalFact is what completing the draft as cash on delivery charges,
// when the COD fee makes it more than the total: staff quote it on the
// phone before choosing.
function codTotalFact(d, m) {
  if (d.status !== 'open' || !d.codTotal || Number(d.codTotal) === Number(d.total)) return null;
  return ['If cash on delivery', h('span', { class: 'cod-total' }, codSentence(d, m))];
}

/** codSentence is "Collect ₹1,898.00 on delivery (includes COD fee ₹49.00)". */
export function codSentence(d, m = (v) => formatMoney(v, d.currency)) {
  const fee = fromPaise(toPaise(d.codTotal) - toPaise(d.total));
  return toPaise(fee) > 0n ? `Collect ${m(d.codTotal)} on delivery (includes COD fee ${m(fee)})` : `Collect ${m(d.codTotal)} on delivery`;
}

/** paymentLinkFacts shows a draft's payment link: its address to share, state and expiry. */
export function paymentLinkFacts(link) {
  if (!link) return null;
  return facts([
    ['Payment link', link.url ? h('span', {}, h('a', { href: link.url, class: 'payment-link', target: '_blank', rel: 'noopener noreferrer', 'data-external': '' }, link.url),
      ' ', paymentLinkActions(link.url)) : '—'],
    ['Link status', badge(link.status)],
    ['Expires', fmtTime(link.expiresAt)],
  ]);
}

/**
 * completeDraft offers the ways to turn an open draft into an order.
 * before() runs first (the page saves what is still unsaved); after a
 * cash-on-delivery or offline completion the order's page opens, after a
 * link the draft is drawn again with its link.
 */
export function completeDraft(d, { before, rerender, latest = () => null }) {
  if (!allowed('POST', '/draft-orders/{}/complete')) return null;
  const status = h('div', { class: 'form-status' });
  const keys = keyedSender();
  const complete = async (body) => {
    await before();
    const res = await keys.send((key) => api('POST', `/draft-orders/${d.id}/complete`, body, { headers: { 'Idempotency-Key': key } }));
    return res;
  };
  const toOrder = (res) => {
    session.flash = 'Draft completed: the order is placed.';
    navigate('/orders/' + res.orderId);
  };
  const run = (body, done) => async () => {
    try {
      done(await complete(body));
    } catch (err) { status.replaceChildren(errorNotice(err)); }
  };
  return h('div', { class: 'complete-draft' },
    status,
    h('div', { class: 'actions' },
      button('Complete as cash on delivery', async () => {
        // The fee is added at completion: the amount to collect is said,
        // from the draft as saved, before anything commits.
        try {
          await before();
        } catch (err) {
          status.replaceChildren(errorNotice(err));
          return;
        }
        const current = latest() || d;
        if (!(await confirm(`${codSentence(current)}. Complete the draft as cash on delivery?`, 'Complete as COD', 'Not yet', 'primary'))) return;
        await run({ payment: 'cod' }, toOrder)();
      }),
      button('Send a payment link', run({ payment: 'link' }, () => {
        // A buyer known by phone alone gets no email: staff share the link.
        session.flash = d.email ? 'Payment link created and emailed to the customer.' : 'Payment link created; the customer has no email: share the link.';
        rerender();
      }), { kind: 'primary' })),
    h('details', {}, h('summary', {}, 'Paid offline…'), form({
      label: 'Offline payment',
      values: { method: 'upi' },
      fields: [
        { name: 'method', label: 'Method', type: 'select', options: [['upi', 'UPI'], ['bank_transfer', 'Bank transfer'], ['cash', 'Cash']] },
        { name: 'reference', label: 'Reference', required: true, maxlength: 200, help: 'The UTR, transfer reference or receipt number.' },
      ],
      submit: 'Complete as paid',
      onSubmit: (v) => complete({ payment: 'offline', ...v }),
      done: toOrder,
    })),
    link('/draft-orders', 'Back to draft orders'));
}
