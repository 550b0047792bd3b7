// Money on the wire is a JSON number of major units with at most 2 decimals
// (499.5). The console never does float arithmetic on it: it formats wire
// numbers for display, reads typed amounts as exact decimal text, sends
// that text as the JSON number itself, and does the little arithmetic it
// needs (what is left to refund) in integer paise with BigInt.

/** Decimal is an amount or rate typed by the user, kept as its exact text. */
export class Decimal {
  constructor(text) {
    this.text = text;
  }

  toString() {
    return this.text;
  }
}

const NUMBER = /^(\d+)(?:\.(\d+))?$/;

/** MAX_WHOLE is the largest amount the API accepts, in major units (money.MaxAmount). */
const MAX_WHOLE = 100000000000n;

/**
 * parseDecimal reads "1,234.50", "₹ 99" or "12.3" into a Decimal, or throws
 * an Error whose message says what is wrong (shown next to the field), in
 * the server's words for the same value.
 */
export function parseDecimal(input) {
  const text = String(input).replace(/[₹,\s]/g, '');
  if (/^-\d/.test(text)) throw new Error('must not be negative');
  const m = NUMBER.exec(text);
  if (!m) throw new Error('must be a number such as 499.50');
  // Zeros past the second decimal change nothing ("12.500" is 12.50).
  const frac = (m[2] || '').length > 2 ? m[2].replace(/0+$/, '').padEnd(2, '0') : (m[2] || '');
  if (frac.length > 2) throw new Error('must have at most 2 decimal places');
  const whole = m[1].replace(/^0+(?=\d)/, '');
  if (BigInt(whole) > MAX_WHOLE || (BigInt(whole) === MAX_WHOLE && /[1-9]/.test(frac))) {
    throw new Error(`must be at most ${MAX_WHOLE}`);
  }
  return new Decimal(frac ? `${whole}.${frac}` : whole);
}

/** toPaise converts a wire amount (a number with ≤ 2 decimals) to BigInt paise exactly, through its text. */
export function toPaise(n) {
  if (n === null || n === undefined) return 0n;
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(String(n));
  if (!m) throw new Error(`not an amount: ${n}`);
  const paise = BigInt(m[2]) * 100n + BigInt((m[3] || '').padEnd(2, '0'));
  return m[1] ? -paise : paise;
}

/** fromPaise renders BigInt paise as exact decimal text: 1230n → "12.30". */
export function fromPaise(p) {
  const neg = p < 0n;
  const abs = neg ? -p : p;
  const text = `${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
  return neg ? `-${text}` : text;
}

const formats = new Map();

/** formatMoney renders a wire amount in currency: 499.5 → "₹499.50". */
export function formatMoney(n, currency = 'INR') {
  if (n === null || n === undefined) return '—';
  let f = formats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-IN', { style: 'currency', currency });
    formats.set(currency, f);
  }
  // A string keeps the exact decimal in browsers that format strings
  // exactly; the others read it as the number it is.
  return f.format(String(n));
}

/** formatRate renders a percent: 18 → "18%". */
export function formatRate(n) {
  return n === null || n === undefined ? '—' : `${n}%`;
}

/**
 * toJSON is JSON.stringify that writes each Decimal as a bare JSON number
 * with exactly the digits typed, never through a float.
 */
export function toJSON(value) {
  const marker = `__decimal_${crypto.getRandomValues(new Uint32Array(2)).join('_')}__`;
  let used = false;
  const text = JSON.stringify(value, (key, v) => {
    if (v instanceof Decimal) {
      used = true;
      return marker + v.text;
    }
    return v;
  });
  if (!used) return text;
  return text.replace(new RegExp(`"${marker}(\\d+(?:\\.\\d+)?)"`, 'g'), '$1');
}
