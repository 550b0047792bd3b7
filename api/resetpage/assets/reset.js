// The password reset page: reads the single-use token from the link the
// reset email carries, takes it out of the address bar (so it stays out of
// history and bookmarks), and sends it with the chosen password to
// POST /customers/password/reset. The answer signs the customer in; this
// page keeps nothing of it: the shop's storefront is where they sign in.
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  const token = new URLSearchParams(location.search).get('token') || '';
  const form = document.getElementById('reset');
  const password = document.getElementById('password');
  const submit = document.getElementById('submit');
  const status = document.getElementById('status');
  history.replaceState(null, '', location.pathname);

  if (!token) {
    status.textContent = 'This link has no token. Open the link from your email again, or ask for a new one.';
    submit.disabled = true;
    return;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    submit.disabled = true;
    status.textContent = 'Setting your password…';
    try {
      const res = await fetch('/customers/password/reset', {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({token, password: password.value}),
      });
      const body = await res.json().catch(() => ({}));
      if (res.ok) {
        form.hidden = true;
        status.textContent = 'Your password is changed. Sign in at the shop with ' + body.customer.email + ' and your new password.';
        return;
      }
      const message = body.error && body.error.message ? body.error.message : 'the shop answered ' + res.status;
      status.textContent = 'Your password was not changed: ' + message + '.';
      if (body.error && body.error.details && body.error.details.field === 'token') {
        status.textContent += ' Ask for a new link: each works once, for an hour.';
        return;
      }
    } catch (err) {
      status.textContent = 'The shop could not be reached. Try again in a moment.';
    }
    submit.disabled = false;
  });
});
