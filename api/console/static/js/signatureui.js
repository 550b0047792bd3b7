// The authorised signatory's signature on the tax settings page: the one
// every invoice and credit note prints, a PNG upload to replace it and a
// button to remove it. The API takes it as signatureImage in the tax
// settings PUT (a data URL; absent keeps it, "" removes it), which takes
// the whole identity: the rest is sent back as the page read it.

import { h, uid } from './dom.js';
import { api, ApiError } from './api.js';
import { notice, errorNotice, button, confirm } from './ui.js';
import { session } from './session.js';

// The server's limit (internal/invoice/signature.go), checked first here
// so a person does not wait for an upload the server would refuse.
const MAX_BYTES = 256 << 10;

function readDataURL(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** signaturePanel shows settings s's signature and, when canEdit, the upload and removal. */
export function signaturePanel(s, canEdit, rerender) {
  const preview = s.signatureImage
    ? h('img', { src: s.signatureImage, alt: 'The authorised signatory\'s signature', class: 'signature-preview' })
    : h('p', { class: 'empty' }, 'No signature yet: documents leave the signatory\'s space blank.');
  if (!canEdit) return preview;
  if (!s.configured) return [preview, notice('info', 'Save the GST identity above first; the signature is kept with it.')];

  const id = uid('signature');
  const input = h('input', { type: 'file', id, name: 'signatureImage', accept: 'image/png', 'aria-describedby': `${id}-help ${id}-err` });
  const error = h('p', { class: 'field-error', id: id + '-err', 'aria-live': 'polite' });
  const status = h('div', { class: 'form-status' });
  const submit = h('button', { type: 'submit', class: 'button primary' }, s.signatureImage ? 'Replace signature' : 'Upload signature');
  const identity = { ...s };
  delete identity.configured;
  delete identity.signatureImage;
  const put = (image) => api('PUT', '/settings/tax', { ...identity, signatureImage: image });
  const fail = (err) => {
    if (err instanceof ApiError && err.field === 'signatureImage') {
      error.textContent = `Signature image ${err.issue}.`;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    } else {
      status.replaceChildren(errorNotice(err));
    }
  };

  const el = h('form', { class: 'form', novalidate: true, 'aria-label': 'Signature' }, status,
    h('div', { class: 'field wide' },
      h('label', { for: id }, 'Signature image (PNG)'), input,
      h('p', { class: 'help', id: id + '-help' }, 'A PNG of 16 to 2000 pixels a side, at most 256 KiB, ideally on a transparent or white background. Documents issued from then on print it.'),
      error),
    h('div', { class: 'actions' }, submit, s.signatureImage ? button('Remove signature', async () => {
      if (!(await confirm('Remove the signature? Documents issued from now on leave its space blank.', 'Remove signature', 'Keep signature'))) return;
      try {
        await put('');
        session.flash = 'Signature removed.';
        rerender();
      } catch (err) { fail(err); }
    }, { kind: 'danger' }) : null));

  el.addEventListener('submit', async (e) => {
    e.preventDefault();
    status.replaceChildren();
    error.textContent = '';
    input.removeAttribute('aria-invalid');
    const file = input.files[0];
    const refuse = (issue) => fail(new ApiError(400, { error: { details: { field: 'signatureImage', issue } } }));
    if (!file) return refuse('is required: choose a PNG file');
    if (file.type !== 'image/png') return refuse('must be a PNG image');
    if (file.size > MAX_BYTES) return refuse('must be at most 256 KiB');
    submit.disabled = true;
    el.setAttribute('aria-busy', 'true');
    try {
      await put(await readDataURL(file));
      session.flash = 'Signature saved: documents issued from now on print it.';
      rerender();
    } catch (err) {
      fail(err);
    } finally {
      submit.disabled = false;
      el.removeAttribute('aria-busy');
    }
    return undefined;
  });
  return [preview, el];
}
