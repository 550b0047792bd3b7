// The admin API client. The browser holds the session in the API's httpOnly
// cookies; this module never sees a token. A call answered 401 refreshes the
// session once and is retried; refreshes never overlap (a refresh token
// presented twice ends the session by design), within a tab through one
// shared promise and across tabs through a Web Lock.

import { toJSON } from './money.js';

const BASE = '/api/v1/admin';

/** ApiError is a refused call: the error envelope's code, message and details. */
export class ApiError extends Error {
  constructor(status, body, retryAfter = '') {
    const e = (body && body.error) || {};
    super(status === 429 && retryAfter
      ? `Too many requests: try again in ${retryAfter} s.`
      : e.message || `The server answered ${status}.`);
    this.status = status;
    this.code = e.code || (status === 0 ? 'NETWORK' : 'HTTP_' + status);
    this.details = e.details || {};
    this.requestId = e.requestId || '';
  }

  /** field is the body field the error names, if any. */
  get field() {
    return typeof this.details.field === 'string' ? this.details.field : '';
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
