// Times arrive as ISO 8601 UTC and are shown in the store's time zone
// (STORE_TIMEZONE, which /auth/me answers as storeTimezone), the zone whose
// calendar days the API's date filters (analytics, order list, documents)
// read; the browser's until it is known.

let storeZone;
let timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** setStoreZone makes times and today's date those of zone (an IANA name); an unknown one keeps the browser's. */
export function setStoreZone(zone) {
  try {
    timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone || undefined });
    storeZone = zone || undefined;
  } catch { /* a zone this browser does not know: its own */ }
}

/** fmtTime renders an ISO time in the store's zone. */
export function fmtTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : timeFormat.format(d);
}

/** fmtDay renders a YYYY-MM-DD UTC day. */
export function fmtDay(day) {
  const d = new Date(day + 'T00:00:00Z');
  return Number.isNaN(d.getTime()) ? day : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
}

/** storeDay returns the store's calendar day of now plus offset days, as YYYY-MM-DD. */
export function storeDay(offsetDays = 0) {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: storeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(new Date());
  const get = (t) => Number(parts.find((p) => p.type === t).value);
  const d = new Date(Date.UTC(get('year'), get('month') - 1, get('day') + offsetDays));
  return d.toISOString().slice(0, 10);
}

// wall is the wall clock of instant d in the store's zone.
function wall(d) {
  const p = new Intl.DateTimeFormat('en-CA', { timeZone: storeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit',
    day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(d);
  const g = (t) => Number(p.find((x) => x.type === t).value);
  return { y: g('year'), m: g('month'), d: g('day'), h: g('hour'), min: g('minute'), s: g('second') };
}

/** toISO turns a datetime-local input value (the store's zone) into ISO UTC; '' stays ''. */
export function toISO(local) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local || '');
  if (!m) return '';
  const asUTC = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  // The zone's offset then: the wall clock it shows at asUTC, less asUTC.
  const w = wall(new Date(asUTC));
  const offset = Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, w.s) - asUTC;
  return new Date(asUTC - offset).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** toLocalInput turns an ISO time into a datetime-local input value in the store's zone. */
export function toLocalInput(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const w = wall(d);
  const pad = (n) => String(n).padStart(2, '0');
  return `${w.y}-${pad(w.m)}-${pad(w.d)}T${pad(w.h)}:${pad(w.min)}`;
}

/** label turns an API value such as partially_refunded into "Partially refunded". */
export function label(value) {
  if (!value) return '—';
  const s = String(value).replace(/_/g, ' ').toLowerCase();
  return s.charAt(0).toUpperCase() + s.slice(1);
}


// Words the API's field names hold that read better as initials.
const INITIALS = { sku: 'SKU', gst: 'GST', hsn: 'HSN', url: 'URL', id: 'ID', ids: 'IDs', cod: 'COD' };

/**
 * fieldName turns an API field path into words a person reads:
 * items[2].quantity → "Quantity (line 3)", gstRate → "GST rate".
 */
export function fieldName(field) {
  const parts = String(field).split('.');
  const last = parts[parts.length - 1].replace(/\[\d+\]$/, '');
  const words = last.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[\s_]+/)
    .map((w) => INITIALS[w] || w).join(' ');
  const index = /\[(\d+)\]/.exec(field);
  const text = words.charAt(0).toUpperCase() + words.slice(1);
  return index ? `${text} (line ${Number(index[1]) + 1})` : text;
}
