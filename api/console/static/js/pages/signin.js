// Sign-in: the password step, then the second factor when the admin has one
// (a 6-digit code from the authenticator app, or a backup code). The API
// sets the session cookies; this page only sends the form.

import { h, replace } from '../dom.js';
import { api } from '../api.js';
import { form } from '../forms.js';
import { navigate, ROOT } from '../router.js';
import { notice } from '../ui.js';
import { session } from '../session.js';

// deviceId names this browser in the admin's session list.
function deviceId() {
  let id = localStorage.getItem('shop-admin-device');
  if (!id) {
    id = 'console-' + crypto.randomUUID().slice(0, 8);
    localStorage.setItem('shop-admin-device', id);
  }
  return id;
}

// target is where to go after signing in: only a console path.
function target(query) {
  const next = query.get('next') || '';
  return next.startsWith(ROOT + '/') && !next.startsWith('//') ? next : ROOT + '/';
}

export async function signinPage({ query }) {
  const body = h('div', {});
  const done = () => {
    session.me = null;
    navigate(target(query), { replace: true });
  };

  const codeStep = (twoFactorToken) => form({
    label: 'Second factor',
    fields: [{ name: 'code', label: 'Authentication code', required: true, autocomplete: 'one-time-code', inputmode: 'numeric',
      help: 'The 6-digit code from your authenticator app, or one of your backup codes.', maxlength: 64 }],
    submit: 'Verify',
    onSubmit: (v) => api('POST', '/auth/2fa/verify', { twoFactorToken, code: v.code }),
    done,
  });

  const passwordStep = form({
    label: 'Sign in',
    fields: [
      { name: 'email', label: 'Email', type: 'email', required: true, autocomplete: 'username' },
      { name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' },
    ],
    submit: 'Sign in',
    onSubmit: (v) => api('POST', '/auth/login', { ...v, deviceId: deviceId() }),
    done: (res) => {
      if (!res.requires2FA) return done();
      const step = codeStep(res.twoFactorToken);
      replace(body, h('p', {}, 'Enter the code from your authenticator app.'), step,
        h('p', {}, h('button', { type: 'button', class: 'button link', onclick: () => replace(body, passwordStep) }, 'Start again')));
      step.querySelector('input').focus();
      return undefined;
    },
  });
  replace(body, passwordStep);

  return h('main', { id: 'main', class: 'signin' },
    h('div', { class: 'card signin-card' },
      h('h1', { tabindex: '-1' }, `${session.settings.appName || 'Shop'} admin`),
      query.get('expired') ? notice('info', 'Your session has ended. Please sign in again.') : null,
      body));
}

