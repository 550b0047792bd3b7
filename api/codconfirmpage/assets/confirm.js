// The COD confirmation page: reads the token from the link, takes it out of
// the address bar, and sends the shopper's answer to
// POST /orders/cod-confirmation.
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  const token = new URLSearchParams(location.search).get('token') || '';
  const confirmButton = document.getElementById('confirm');
  const cancelButton = document.getElementById('cancel');
  const status = document.getElementById('status');
  history.replaceState(null, '', location.pathname);

  if (!token) {
    status.textContent = 'This link has no token. Open the link from your message again.';
    confirmButton.disabled = true;
    cancelButton.disabled = true;
    return;
  }

  async function answer(value) {
    confirmButton.disabled = true;
    cancelButton.disabled = true;
    status.textContent = 'Sending your answer…';
    try {
      const res = await fetch('/orders/cod-confirmation', {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({token, answer: value}),
      });
      const body = await res.json().catch(() => ({}));
      if (res.ok) {
        status.textContent = body.status === 'confirmed'
          ? 'Thank you: order ' + body.orderNumber + ' is confirmed and will be shipped.'
          : 'Order ' + body.orderNumber + ' is cancelled.';
        return;
      }
      const message = body.error && body.error.message ? body.error.message : 'the shop answered ' + res.status;
      status.textContent = 'Your answer was not taken: ' + message + '.';
    } catch (err) {
      status.textContent = 'The shop could not be reached. Try again in a moment.';
      confirmButton.disabled = false;
      cancelButton.disabled = false;
    }
  }
  confirmButton.addEventListener('click', () => answer('confirm'));
  cancelButton.addEventListener('click', () => answer('cancel'));
});
