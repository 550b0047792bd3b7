// The signed-in admin's own account: sessions (revoke one, sign out
// everywhere) and two-factor sign-in (set up with the QR code, backup codes
// shown once; turn off with a code).

import { h, replace } from '../dom.js';
import { api } from '../api.js';
import { form } from '../forms.js';
import { navigate } from '../router.js';
import { pageHead, section, table, facts, badge, button, confirm, errorNotice, notice } from '../ui.js';
import { fmtTime, label } from '../format.js';
import { session } from '../session.js';

function signedOut() {
  session.me = null;
  navigate('/signin', { replace: true });
}

export async function accountPage({ rerender }) {
  // The admin was read at sign-in (GET /auth/me); this page changes the
  // only part of it that changes here, so it asks for the sessions alone.
  const me = session.me;
  const sessions = await api('GET', '/auth/sessions');
  const status = h('div', { class: 'form-status' });
  const fail = (err) => status.replaceChildren(errorNotice(err));
  const twoFactor = h('span', {}, badge(me.twoFactorEnabled ? 'on' : 'off'));
  const setTwoFactor = (on) => {
    session.me.twoFactorEnabled = on;
    replace(twoFactor, badge(on ? 'on' : 'off'));
  };
  return [
    pageHead('Your account'),
    section('Profile', facts([['Name', me.name || '—'], ['Email', me.email], ['Role', label(me.role)],
      ['Two-factor sign-in', twoFactor], ['Since', fmtTime(me.createdAt)]])),
    section('Two-factor sign-in', me.twoFactorEnabled ? disableForm(rerender, setTwoFactor) : setup(rerender, setTwoFactor)),
    section('Sessions', status,
      table([
        { label: 'Device', cell: (s) => h('span', {}, s.deviceId, s.current ? [' ', badge('this_device')] : null, h('br'), h('span', { class: 'muted' }, s.userAgent || '')) },
        { label: 'Address', cell: (s) => s.ipAddress || '—' },
        { label: 'Signed in', cell: (s) => fmtTime(s.createdAt) },
        { label: 'Last used', cell: (s) => fmtTime(s.lastUsedAt) },
        { label: 'Ends', cell: (s) => fmtTime(s.expiresAt) },
        { label: 'Actions', cell: (s) => button(s.current ? 'Sign out' : 'Revoke', async () => {
          try {
            await api('DELETE', '/auth/sessions/' + s.id);
            if (s.current) return signedOut();
            session.flash = 'Session revoked.';
            return rerender();
          } catch (err) { return fail(err); }
        }, { kind: 'small danger', attrs: { 'aria-label': `Revoke the session of ${s.deviceId}` } }) },
      ], sessions.data),
      h('p', {}, button('Sign out everywhere', async () => {
        if (!(await confirm('End every session of your account, on every device, including this one?', 'Sign out everywhere', 'Stay signed in'))) return;
        try {
          await api('DELETE', '/auth/logout/all');
          signedOut();
        } catch (err) { fail(err); }
      }, { kind: 'danger' }))),
  ];
}

function disableForm(rerender, setTwoFactor) {
  return [
    h('p', {}, 'Two-factor sign-in is on. Signing in asks for a code from your authenticator app.'),
    form({
      label: 'Turn off two-factor sign-in',
      fields: [{ name: 'code', label: 'Code from your app, or a backup code', required: true, autocomplete: 'one-time-code', maxlength: 64 }],
      submit: 'Turn off two-factor',
      kind: 'danger',
      onSubmit: (v) => api('POST', '/auth/2fa/disable', v),
      done: () => {
        setTwoFactor(false);
        session.flash = 'Two-factor sign-in is off.';
        rerender();
      },
    }),
  ];
}

function setup(rerender, setTwoFactor) {
  const area = h('div', {});
  const start = button('Set up two-factor sign-in', async () => {
    start.disabled = true;
    try {
      const secret = await api('POST', '/auth/2fa/generate-secret');
      replace(area,
        h('p', {}, 'Scan this code with an authenticator app, or type the key, then enter the 6-digit code it shows.'),
        h('img', { src: secret.qrCode, alt: 'QR code for your authenticator app', class: 'qr', width: 200, height: 200 }),
        h('p', {}, 'Key: ', h('code', { class: 'secret', dataset: { secret: secret.secret } }, secret.secret)),
        form({
          label: 'Turn on two-factor sign-in',
          fields: [{ name: 'code', label: '6-digit code', required: true, autocomplete: 'one-time-code', inputmode: 'numeric', maxlength: 6 }],
          submit: 'Turn on',
          onSubmit: (v) => api('POST', '/auth/2fa/enable', v),
          done: (res) => {
            setTwoFactor(true);
            replace(area,
              notice('ok', 'Two-factor sign-in is on.'),
              notice('info', 'Save these backup codes somewhere safe now. Each signs you in once if you lose your device. They are not shown again.'),
              h('ol', { class: 'backup-codes' }, res.backupCodes.map((c) => h('li', {}, h('code', {}, c)))),
              button('I have saved them', () => rerender(), { kind: 'primary' }));
            area.querySelector('.backup-codes').scrollIntoView();
          },
        }));
      area.querySelector('input').focus();
    } catch (err) {
      start.disabled = false;
      replace(area, errorNotice(err));
    }
  }, { kind: 'primary' });
  return [h('p', {}, 'Two-factor sign-in is off. Turn it on so a stolen password alone cannot open this console.'), start, area];
}
