// The claim page: reads the email and the single-use token from the link
// the claim email carries, takes them out of the address bar (so the token
// stays out of history and bookmarks), and sends them with the chosen
// password to POST /customers/claim.
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  const params = new URLSearchParams(location.search);
  const token = params.get('token') || '';
  const form = document.getElementById('claim');
  const email = document.getElementById('email');
  const password = document.getElementById('password');
  const submit = document.getElementById('submit');
  const status = document.getElementById('status');
  email.value = params.get('email') || '';
  history.replaceState(null, '', location.pathname);

  if (!token) {
    status.textContent = 'This link has no token. Open the link from your email again, or ask the shop for a new one.';
    submit.disabled = true;
    return;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    submit.disabled = true;
    status.textContent = 'Setting your password…';
    try {
      const res = await fetch('/customers/claim', {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({email: email.value.trim(), token, newPassword: password.value}),
      });
      const body = await res.json().catch(() => ({}));
      if (res.ok) {
        form.hidden = true;
        status.textContent = 'Your account is ready. Sign in at the shop with ' + body.email + ' and your new password.';
        return;
      }
      const message = body.error && body.error.message ? body.error.message : 'the shop answered ' + res.status;
      status.textContent = 'Your password was not set: ' + message + '.';
    } catch (err) {
      status.textContent = 'The shop could not be reached. Try again in a moment.';
    }
    submit.disabled = false;
  });
});
