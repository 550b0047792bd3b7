// A cash on delivery order waiting for its customer's confirmation
// (status pending_confirmation, docs/DECISIONS.md "Customer messages and
// COD confirmation"): staff who hear the customer's answer by phone give it
// for them (POST /orders/{id}/cod-confirmation), which does what the
// customer's link does. The status moves are not offered for such an
// order: unlike this answer they would override a customer who answered
// the link a moment earlier.

import { h } from './dom.js';
import { api, keyedSender } from './api.js';
import { allowed } from './perm.js';
import { button, confirm, errorNotice, notice, section } from './ui.js';
import { session } from './session.js';

const PATH = '/orders/{}/cod-confirmation';

/** answersForCustomer reports whether staff answer order o's confirmation here. */
export function answersForCustomer(o) {
  return o.status === 'pending_confirmation' && allowed('POST', PATH);
}

/** codConfirmation is the panel of an order waiting for its confirmation, else null. */
export function codConfirmation(o, rerender) {
  if (o.status !== 'pending_confirmation') return null;
  const status = h('div', { class: 'form-status' });
  const answer = (value, question, yes, no, flash, kind) => {
    const keys = keyedSender();
    return button(yes, async () => {
      if (!(await confirm(question, yes, no, kind))) return;
      try {
        await keys.send((key) => api('POST', `/orders/${o.id}/cod-confirmation`, { answer: value }, { headers: { 'Idempotency-Key': key } }));
        session.flash = flash;
        rerender();
      } catch (err) {
        status.replaceChildren(errorNotice(err));
      }
    }, { kind });
  };
  return section('Waiting for the customer\'s confirmation',
    notice('info', 'The customer was sent a link to confirm this cash on delivery order. Nothing ships until it is confirmed; ',
      'it is cancelled by itself when not answered in time.'),
    status,
    answersForCustomer(o) ? h('p', { class: 'row-actions' },
      answer('confirm', `The customer confirmed order ${o.orderNumber}? It can then be shipped, and the customer gets the order confirmation message.`,
        'Customer confirmed', 'Not yet', 'Order confirmed for the customer.', 'primary'),
      answer('cancel', `The customer cancelled order ${o.orderNumber}? Its stock is released.`,
        'Customer cancelled', 'Keep waiting', 'Order cancelled for the customer; its stock is released.', 'danger')) : null);
}
