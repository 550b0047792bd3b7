// A draft order (docs/DECISIONS.md "Draft orders and payment links"): staff
// builds an order for a customer (found by the customer picker, or by
// email, name and phone), picks its lines, the shipping address and
// method and a discount code, and sees the totals the server computes as
// checkout would. The draft is created once it has a line and the fields
// a draft needs, and saved again (debounced) as lines and quantities
// change, so the totals shown are always the server's. It is completed as
// cash on delivery, paid offline, or by a payment link.

import { h, replace } from '../dom.js';
import { api, keyedSender, referenceList } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { navigate, href } from '../router.js';
import { pageHead, section, button, confirm, errorNotice, notice, badge, facts, link } from '../ui.js';
import { formatMoney } from '../money.js';
import { session, currency } from '../session.js';
import { sources } from '../sources.js';
import { linesEditor } from '../lines.js';
import { draftTotals, completeDraft, paymentLinkFacts } from '../draftui.js';

// Line changes wait this long for the next one before the draft is saved.
const SAVE_DELAY_MS = 500;

export async function newDraftPage({ rerender }) {
  return draftBuilder(null, await shippingMethods(), rerender);
}

export async function draftPage({ params, rerender }) {
  const d = await api('GET', '/draft-orders/' + encodeURIComponent(params.id));
  if (d.status !== 'open' || !allowed('PATCH', '/draft-orders/{}')) return draftSummary(d);
  return draftBuilder(d, await shippingMethods(), rerender);
}

// shippingMethods lists the active methods of every zone, as select options.
async function shippingMethods() {
  if (!allowed('GET', '/shipping/zones')) return [];
  const zones = await referenceList('/shipping/zones');
  return zones.flatMap((z) => (z.methods || []).filter((m) => m.isActive)
    .map((m) => [m.id, `${z.name}: ${m.name} (${formatMoney(m.price, currency())})`]));
}

function title(d) {
  return d ? `Draft order for ${d.name || d.email}` : 'New draft order';
}

// draftSummary is a draft that can no longer change: waiting for its link
// to be paid, or completed.
function draftSummary(d) {
  return [
    pageHead(title(d), badge(d.status)),
    section('Customer', facts([['Name', d.name || '—'], ['Email', d.email || '—'], ['Phone', d.phone || '—']])),
    section('Totals', draftTotals(d)),
    d.paymentLink ? section('Payment', paymentLinkFacts(d.paymentLink)) : null,
    d.orderId ? h('p', {}, 'It became the order ', link('/orders/' + d.orderId, 'shown here'), '.') : null,
    d.status === 'open' ? null : h('p', { class: 'muted' }, d.status === 'awaiting_payment'
      ? 'The payment link holds the stock; the draft becomes an order when the customer pays, and opens again if the link expires.' : ''),
    h('p', {}, link('/draft-orders', 'Back to draft orders')),
  ];
}

function addressValues(a) {
  return a ? { street: a.street, city: a.city, state: a.state, pincode: a.pincode, country: a.country } : { country: 'India' };
}

function draftBuilder(d, methods, rerender) {
  let draft = d;
  const keys = keyedSender();
  const status = h('div', { class: 'form-status', 'aria-live': 'polite' });
  const totals = h('div', { class: 'totals-slot' });
  const completion = h('div', { class: 'complete-slot' });
  const states = [...new Set([...(session.settings.states || []), ...(d && d.shippingAddress ? [d.shippingAddress.state] : [])])];
  const lines = linesEditor({
    label: 'Add a variant', max: 1000,
    lines: d ? d.items.map((l) => ({ variantId: l.variantId, quantity: l.quantity })) : [],
    names: new Map(d ? d.items.map((l) => [l.variantId, { label: l.title, hint: l.sku }]) : []),
    onChange: () => schedule(),
  });

  // A saved draft names its customer (a guest's record too) in the picker.
  const values = d ? {
    customerId: d.customerId, ...addressValues(d.shippingAddress),
    shippingMethodId: d.shippingMethodId || '', discountCode: d.discountCode || '', note: d.note,
  } : { country: 'India' };
  const details = form({
    label: 'Draft order',
    values,
    fields: [
      { name: 'customerId', label: 'Customer', type: 'picker', source: sources.customer, placeholder: 'Name or email', wide: true,
        labels: new Map(d ? [[d.customerId, { label: d.name || d.email, hint: d.name ? d.email : '' }]] : []),
        help: 'An existing customer; or leave empty and give a name and an email or a phone below.' },
      { name: 'email', label: 'Email', type: 'email', maxlength: 254 },
      { name: 'name', label: 'Name', maxlength: 200 },
      { name: 'phone', label: 'Phone', type: 'tel', maxlength: 20 },
      { name: 'street', label: 'Street', required: true, maxlength: 500, wide: true },
      { name: 'city', label: 'City', required: true, maxlength: 100 },
      { name: 'state', label: 'State', type: 'select', required: true, options: [['', 'Pick a state'], ...states] },
      { name: 'pincode', label: 'PIN code', required: true, maxlength: 12, inputmode: 'numeric' },
      { name: 'country', label: 'Country', required: true, maxlength: 100 },
      { name: 'shippingMethodId', label: 'Shipping method', type: 'select', options: [['', 'No method (no shipping charge)'], ...methods] },
      { name: 'discountCode', label: 'Discount code', maxlength: 64 },
      { name: 'note', label: 'Staff note on the order', type: 'textarea', maxlength: 2000, wide: true },
    ],
    extra: [h('h3', {}, 'Lines'), lines],
    submit: d ? 'Save draft' : 'Create draft',
    onSubmit: (v) => save(v),
    done: (res) => {
      replace(status, notice('ok', 'Saved.'));
      show(res);
    },
  });

  // Saves run one after another, so that the first one's create is never
  // raced by a second create.
  let chain = Promise.resolve();
  function save(v) {
    const run = chain.catch(() => {}).then(() => send(v));
    chain = run;
    return run;
  }

  async function send(v) {
    const items = lines.lines();
    if (!items.length) throw new Error('A draft needs at least one line: pick a variant.');
    const body = { items, note: v.note || '',
      shippingAddress: { street: v.street, city: v.city, state: v.state, pincode: v.pincode, country: v.country } };
    // The buyer is sent when it changes: naming the same record again
    // would put its name and phone over the ones typed for a guest.
    if (v.customerId) {
      if (!draft || v.customerId !== draft.customerId) body.customerId = v.customerId;
    // A phone order's buyer may have no email: a phone alone will do.
    } else if (v.email || v.phone || v.name || !draft) Object.assign(body, { email: v.email || undefined, name: v.name || '', phone: v.phone || '' });
    if (v.shippingMethodId) body.shippingMethodId = v.shippingMethodId;
    if (v.discountCode || draft) body.discountCode = v.discountCode || '';
    const res = await keys.send((key) => (draft
      ? api('PATCH', `/draft-orders/${draft.id}`, body, { headers: { 'Idempotency-Key': key } })
      : api('POST', '/draft-orders', body, { headers: { 'Idempotency-Key': key } })));
    if (!draft) history.replaceState(null, '', href('/draft-orders/' + res.id));
    draft = res;
    return res;
  }

  // schedule saves the draft a moment after the last line change: a saved
  // draft at once, a new one once the fields it needs are filled in.
  let timer = 0;
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = 0;
      if (!lines.lines().length) {
        if (draft) replace(status, notice('info', 'A draft keeps at least one line: the last one stays until another is added.'));
        return;
      }
      if (!draft && !details.checkValidity()) {
        replace(status, notice('info', 'The totals appear once the customer and the shipping address are filled in.'));
        return;
      }
      replace(status);
      details.requestSubmit();
    }, SAVE_DELAY_MS);
  }

  // flush saves at once a change still waiting, and resolves once every
  // save has answered (a refused one rejects).
  function flush() {
    if (timer) {
      clearTimeout(timer);
      timer = 0;
      details.requestSubmit();
    }
    return chain;
  }

  // The shipping method, discount code and state change the totals too.
  details.addEventListener('change', (e) => {
    if (draft && ['shippingMethodId', 'discountCode', 'state'].includes(e.target.name)) schedule();
  });

  function show(res) {
    replace(totals, draftTotals(res));
    replace(completion, res.status === 'open' ? completeDraft(res, { before: flush, rerender, latest: () => draft }) : paymentLinkFacts(res.paymentLink));
    head.querySelector('h1').textContent = title(res);
  }

  const remove = d && allowed('DELETE', '/draft-orders/{}') ? button('Delete draft', async () => {
    if (!(await confirm('Delete this draft order?', 'Delete draft', 'Keep draft'))) return;
    try {
      await api('DELETE', `/draft-orders/${draft.id}`);
      session.flash = 'Draft order deleted.';
      navigate('/draft-orders');
    } catch (err) { replace(status, errorNotice(err)); }
  }, { kind: 'danger' }) : null;
  const head = pageHead(title(d), d ? badge(d.status) : null, remove);
  if (d) show(d);
  else replace(totals, h('p', { class: 'muted' }, 'The totals appear once the draft has a line, a customer and a shipping address.'));
  return [
    head,
    status,
    section(null, details),
    section('Totals', totals),
    section('Complete', completion),
  ];
}
