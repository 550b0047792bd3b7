// A payment link staff hand to a customer on the phone or in a chat: a
// Copy button (the clipboard, or a selected field where the page may not
// use it) and, where the device can share (navigator.share: phones), a
// Share button.

import { h } from './dom.js';
import { button, copyText } from './ui.js';

/** paymentLinkActions are the Copy and Share buttons of payment link url. */
export function paymentLinkActions(url) {
  if (!url) return null;
  const said = h('span', { class: 'muted', role: 'status' });
  const copy = button('Copy', async () => {
    said.textContent = (await copyText(url)) ? 'Copied.' : 'Select the link and copy it.';
  }, { kind: 'small', attrs: { 'aria-label': 'Copy the payment link' } });
  const share = typeof navigator.share === 'function' ? button('Share', async () => {
    try {
      await navigator.share({ title: 'Payment link', url });
    } catch { /* the person closed the share sheet */ }
  }, { kind: 'small', attrs: { 'aria-label': 'Share the payment link' } }) : null;
  return h('span', { class: 'row-actions link-actions' }, copy, share, said);
}
