// The admin API client. The browser holds the session in the API's httpOnly
// cookies; this module never sees a token. A call answered 401 refreshes the
// session once and is retried; refreshes never overlap (a refresh token
// presented twice ends the session by design), within a tab through one
// shared promise and across tabs through a Web Lock.

import { toJSON } from './money.js';
import { fieldName } from './format.js';

const BASE = '/api/v1/admin';

/** ApiError is a refused call: the error envelope's code, message and details. */
export class ApiError extends Error {
  constructor(status, body, retryAfter = '') {
    const e = (body && body.error) || {};
    const d = e.details || {};
    // A refused field is named as a person reads it (the form puts its own
    // label instead), never by the API's field name.
    const named = typeof d.field === 'string' && typeof d.issue === 'string' ? `${fieldName(d.field)} ${d.issue}` : '';
    super(status === 429 && retryAfter
      ? `Too many requests: try again in ${retryAfter} s.`
      : named || e.message || `The server answered ${status}.`);
    this.status = status;
    // retryAfter is the Retry-After header in seconds (0 when absent).
    this.retryAfter = /^\d+$/.test(retryAfter) ? Number(retryAfter) : 0;
    this.code = e.code || (status === 0 ? 'NETWORK' : 'HTTP_' + status);
    this.details = e.details || {};
    this.requestId = e.requestId || '';
  }

  /** field is the body field the error names, if any. */
  get field() {
    return typeof this.details.field === 'string' ? this.details.field : '';
  }

  /** issue is what is wrong with field, without the field's name. */
  get issue() {
    return typeof this.details.issue === 'string' ? this.details.issue : '';
  }
}

// Routes that answer 401 for a wrong password or code, not for an
// expired session: never refreshed.
const NO_REFRESH = ['/auth/login', '/auth/2fa/verify', '/auth/refresh'];

let onSignedOut = () => {};

/** setSignedOutHandler registers what happens when the session is gone. */
export function setSignedOutHandler(fn) {
  onSignedOut = fn;
}

async function send(method, path, body, headers) {
  const init = { method, headers: { Accept: 'application/json', ...headers }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = toJSON(body);
  }
  try {
    return await fetch(BASE + path, init);
  } catch (err) {
    throw new ApiError(0, { error: { message: 'The server could not be reached. Check the connection and try again.' } });
  }
}

async function parse(res) {
  if (res.status === 204) return null;
  const text = await res.text();
  let body = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!res.ok) throw new ApiError(res.status, body, res.headers.get('Retry-After') || '');
  return body;
}

/**
 * api calls the admin API: api('GET', '/orders?page=2'). The body, if any,
 * is sent as JSON (Decimals as exact numbers). It resolves to the parsed
 * answer (null for 204) and rejects with an ApiError.
 */
export async function api(method, path, body, { headers = {} } = {}) {
  // A write may change any list kept below; they are read again after it.
  if (method !== 'GET') references.clear();
  let res = await send(method, path, body, headers);
  if (res.status === 401 && !NO_REFRESH.some((p) => path.startsWith(p))) {
    if (await refreshSession()) {
      res = await send(method, path, body, headers);
    }
    if (res.status === 401) {
      onSignedOut();
    }
  }
  return parse(res);
}

// Small lists many pages consult (categories, customer groups,
// collections, admins) are kept for a minute, so that moving between pages
// does not ask for them again (docs/DECISIONS.md, "Console: names, forms
// that recover, request budget").
const REFERENCE_TTL_MS = 60_000;
const references = new Map();

/**
 * referenceList resolves to the rows of a small list (its first 100, e.g.
 * referenceList('/categories')), kept for a minute and dropped after any
 * write the console makes.
 */
export function referenceList(path) {
  const hit = references.get(path);
  if (hit && hit.until > Date.now()) return hit.rows;
  const rows = api('GET', path + (path.includes('?') ? '&' : '?') + 'limit=100').then((res) => res.data || []);
  references.set(path, { rows, until: Date.now() + REFERENCE_TTL_MS });
  rows.catch(() => references.delete(path));
  return rows;
}

let refreshing = null;

/** refreshSession swaps the refresh cookie for a new pair; true when the session lives on. */
function refreshSession() {
  if (!refreshing) {
    const run = async () => {
      try {
        const res = await fetch(BASE + '/auth/refresh', { method: 'POST', headers: { Accept: 'application/json' }, credentials: 'same-origin' });
        return res.ok;
      } catch {
        return false;
      }
    };
    const locked = navigator.locks ? navigator.locks.request('shop-admin-refresh', run) : run();
    refreshing = locked.finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

/**
 * download fetches a file of the admin API (a CSV export; with method POST
 * and a body, the labels' PDF of POST /labels) and hands it to the browser
 * as a download named name; rejects with an ApiError.
 */
export async function download(path, name, { method = 'GET', body } = {}) {
  const accept = { Accept: 'text/csv, application/pdf, application/json' };
  let res = await send(method, path, body, accept);
  if (res.status === 401 && (await refreshSession())) res = await send(method, path, body, accept);
  if (!res.ok) return parse(res);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}

/** query renders a query string from the non-empty entries of params. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, v);
  }
  const s = q.toString();
  return s ? '?' + s : '';
}

/** idempotencyKey makes a key for one form's submissions, so a retried submit is not applied twice. */
export function idempotencyKey() {
  return crypto.randomUUID();
}

/**
 * settled reports whether a refused call has a definite answer: the server
 * handled the request and will answer the same key the same way (any 4xx
 * but a 409 with Retry-After, which says the first request with the key is
 * still running). No answer, a 5xx or that 409 leave the outcome open: the
 * same key must be sent again so that the write happens at most once.
 */
export function settled(err) {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 409 && err.retryAfter > 0) return false;
  return err.status >= 400 && err.status < 500;
}

// A 409 "still running" is waited out this many times before it is shown.
const STILL_RUNNING_WAITS = 3;

/**
 * keyedSender holds the Idempotency-Key of one form or button. send(fn)
 * calls fn(key): after a definite answer (success, or settled) the next
 * call gets a new key, so a corrected request is a new request and not
 * "key already used with another request"; after an open outcome it keeps
 * the key, so resending cannot apply the write twice. A 409 "still
 * running" is waited out (its Retry-After) and sent again with the same key.
 */
export function keyedSender() {
  let key = idempotencyKey();
  return {
    get key() {
      return key;
    },
    async send(fn) {
      for (let wait = 0; ; wait += 1) {
        try {
          const result = await fn(key);
          key = idempotencyKey();
          return result;
        } catch (err) {
          if (settled(err)) key = idempotencyKey();
          const running = err instanceof ApiError && err.status === 409 && err.retryAfter > 0;
          if (!running || wait >= STILL_RUNNING_WAITS) throw err;
          await new Promise((resolve) => setTimeout(resolve, Math.min(err.retryAfter, 5) * 1000));
        }
      }
    },
  };
}
