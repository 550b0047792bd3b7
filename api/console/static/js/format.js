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

/** toISO turns a datetime-local input value (browser zone) into ISO UTC; '' stays ''. */
export function toISO(local) {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** toLocalInput turns an ISO time into a datetime-local input value in the browser zone. */
export function toLocalInput(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
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
