// Shared page pieces: headings, tables that stack on a phone, pagers,
// notices, confirmations, badges and the job progress panel.

import { h, replace } from './dom.js';
import { api, ApiError } from './api.js';
import { href } from './router.js';
import { label } from './format.js';

/** pageHead is a page's title (focused after navigation) and its actions. */
export function pageHead(title, ...actions) {
  return h('header', { class: 'page-head' },
    h('h1', { tabindex: '-1' }, title),
    actions.length ? h('div', { class: 'actions' }, actions) : null);
}

/** section is a titled card. */
export function section(title, ...children) {
  return h('section', { class: 'card' }, title ? h('h2', {}, title) : null, children);
}

/** link is a console link: link('/orders/1', 'ORD-1'). */
export function link(path, text, attrs = {}) {
  return h('a', { href: href(path), ...attrs }, text);
}

/** linkButton is a console link styled as a button. */
export function linkButton(path, text, kind = '') {
  return h('a', { href: href(path), class: ['button', kind] }, text);
}

/** button is a real <button type="button">. */
export function button(text, onClick, { kind = '', attrs = {} } = {}) {
  return h('button', { type: 'button', class: ['button', kind], onclick: onClick, ...attrs }, text);
}

/**
 * table renders rows under columns ({label, cell(row), class}). On a narrow
 * screen each row becomes a card whose cells are labelled (data-label),
 * unless compact (a small table inside a card).
 */
export function table(columns, rows, { empty = 'Nothing here yet.', caption, compact = false } = {}) {
  if (!rows.length) return h('p', { class: 'empty' }, empty);
  return h('div', { class: 'table-wrap' },
    h('table', { class: ['data', compact ? 'compact' : ''] },
      caption ? h('caption', { class: 'visually-hidden' }, caption) : null,
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.class }, c.label)))),
      h('tbody', {}, rows.map((row) => h('tr', {},
        columns.map((c) => h('td', { class: c.class, 'data-label': c.label }, c.cell(row))))))));
}

/** pager moves through a list's pages: onPage(n) is called with the page wanted. */
export function pager(pagination, onPage, noun = 'items') {
  if (!pagination) return null;
  const { page, totalPages, total } = pagination;
  const last = Math.max(totalPages, 1);
  return h('nav', { class: 'pager', 'aria-label': 'Pages' },
    button('‹ Previous', () => onPage(page - 1), { attrs: { disabled: page <= 1 } }),
    h('span', { class: 'pager-status' }, `Page ${page} of ${last} · ${total} ${noun}`),
    button('Next ›', () => onPage(page + 1), { attrs: { disabled: page >= last } }));
}

/** notice is a message box; errors are announced at once. */
export function notice(kind, ...children) {
  return h('div', { class: ['notice', kind], role: kind === 'error' ? 'alert' : 'status' }, children);
}

/**
 * errorNotice explains a failed call. The request id support asks for is
 * kept out of the sentence: it is behind "Details" (and the notice's
 * data-request-id), to be copied when someone asks for it.
 */
export function errorNotice(err) {
  if (!(err instanceof ApiError)) return notice('error', String(err && err.message ? err.message : err));
  const el = notice('error', h('span', { class: 'notice-text' }, err.message,
    err.details && err.details.issue && !err.field ? ` (${err.details.issue})` : ''),
  err.requestId ? requestDetails(err.requestId) : null);
  if (err.requestId) el.dataset.requestId = err.requestId;
  return el;
}

// requestDetails is the request id of a refused call, folded away, with a
// Copy button for the message to support.
function requestDetails(id) {
  const code = h('code', {}, id);
  return h('details', { class: 'request-id' }, h('summary', {}, 'Details'),
    h('span', {}, 'Request id ', code, ' ', button('Copy', () => copyText(id), { kind: 'small', attrs: { 'aria-label': 'Copy the request id' } })));
}

/**
 * copyText puts text on the clipboard (navigator.clipboard, else a
 * selected textarea and execCommand, for pages that are not a secure
 * context); resolves true when it was copied.
 */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* falls back below */ }
  const area = h('textarea', { readonly: true, class: 'visually-hidden', 'aria-hidden': 'true', tabindex: '-1' }, text);
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch { ok = false; }
  area.remove();
  return ok;
}

/** badge shows a status. */
export function badge(value) {
  return h('span', { class: ['badge', `badge-${String(value || '').replace(/[^a-z_]/gi, '')}`] }, label(value));
}

/** facts is a definition list of [term, value] pairs (null values skipped). */
export function facts(pairs) {
  return h('dl', { class: 'facts' }, pairs.filter((p) => p && p[1] !== null && p[1] !== undefined)
    .map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

/**
 * confirm asks a question in a modal dialog whose two buttons say what each
 * does ("Cancel order" / "Keep order"); resolves true on yes.
 */
export function confirm(message, yes, no, kind = 'danger') {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'confirm', 'aria-label': 'Confirm' });
    const opener = document.activeElement;
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      if (opener && opener.isConnected) opener.focus();
      resolve(answer);
    };
    dialog.append(
      h('p', {}, message),
      h('div', { class: 'actions' },
        button(no, () => close(false)),
        button(yes, () => close(true), { kind })));
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      close(false);
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** loading is the placeholder while a page loads. */
export function loading(what = 'Loading…') {
  return h('p', { class: 'loading', role: 'status' }, what);
}

const FINAL = new Set(['completed', 'failed']);

/**
 * jobPanel follows a queued job (bulk inventory update, reconcile, order
 * export) through GET /jobs/{jobId} until it ends, showing its state, a
 * progress bar while it runs, and its result or error; done(job), if given,
 * draws what a completed job offers instead of its raw result.
 */
export function jobPanel(jobId, title = 'Job', { done } = {}) {
  const state = h('p', { class: 'job-state', role: 'status', 'aria-live': 'polite' }, 'Queued…');
  const bar = h('progress', { 'aria-label': `${title} progress` });
  const out = h('div', {});
  // The job's id is an attribute (support may ask for it), not a sentence.
  const panel = h('section', { class: 'card job', dataset: { job: jobId }, title: `Job ${jobId}` }, h('h2', {}, title), state, bar, out);
  let delay = 500;
  const poll = async () => {
    if (!panel.isConnected && panel.dataset.started) return;
    panel.dataset.started = '1';
    try {
      const job = await api('GET', `/jobs/${encodeURIComponent(jobId)}`);
      panel.dataset.state = job.state;
      replace(state, `State: ${label(job.state)}`);
      if (FINAL.has(job.state)) {
        bar.max = 1;
        bar.value = 1;
        replace(out,
          job.error ? notice('error', job.error) : notice('ok', 'Done', job.completedAt ? ` at ${new Date(job.completedAt).toLocaleString()}` : '', '.'),
          done && job.state === 'completed' ? done(job)
            : job.result ? h('pre', { class: 'json' }, JSON.stringify(job.result, null, 2)) : null);
        return;
      }
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) {
        replace(out, errorNotice(err));
        return;
      }
    }
    delay = Math.min(delay * 1.5, 3000);
    setTimeout(poll, delay);
  };
  setTimeout(poll, 0);
  return panel;
}

/**
 * openDialog shows content (usually a form) in a modal dialog with a close
 * button; it returns a function that closes it. onClose runs once it has
 * closed, however it was closed.
 */
export function openDialog(title, content, { onClose } = {}) {
  const dialog = h('dialog', { class: 'panel', 'aria-label': title });
  const opener = document.activeElement;
  const close = () => dialog.close();
  dialog.append(h('header', { class: 'dialog-head' }, h('h2', {}, title), button('Close', close, { kind: 'small' })), content);
  // Closing (the button, Esc, or a caller) removes the dialog and gives
  // focus back to what opened it.
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener && opener.isConnected) opener.focus();
    if (onClose) onClose();
  });
  document.body.append(dialog);
  dialog.showModal();
  dialog.querySelector('input, select, textarea')?.focus();
  return close;
}
