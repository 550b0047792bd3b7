// A bar chart of revenue by day, drawn as SVG by hand: no chart library,
// no inline style (colours come from app.css classes). Bar heights are a
// display scale only; amounts are shown from the API's own numbers.

import { h, s } from './dom.js';
import { formatMoney } from './money.js';
import { fmtDay } from './format.js';

const H = 260;
const PAD = { top: 16, right: 12, bottom: 36, left: 78 };
// LABEL_GAP is the least distance between two day labels' centres, in the
// drawing's units: a label such as "29 Nov" is about 40 wide.
const LABEL_GAP = 56;

/** revenueChart draws days [{date, revenue}] in currency. */
export function revenueChart(days, currency) {
  // A narrow screen gets a narrower drawing, so its labels stay readable
  // once scaled to the width.
  const narrow = window.matchMedia('(max-width: 640px)').matches;
  const W = narrow ? 440 : 800;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const max = Math.max(0, ...days.map((d) => Number(d.revenue)));
  const top = max > 0 ? niceCeil(max) : 1;
  const slot = plotW / Math.max(days.length, 1);
  const barW = Math.max(1, Math.min(28, slot * 0.7));
  const y = (v) => PAD.top + plotH - (Number(v) / top) * plotH;
  const total = days.reduce((n, d) => n + (Number(d.revenue) > 0 ? 1 : 0), 0);
  const titleId = 'chart-title';
  const descId = 'chart-desc';

  const grid = [0, 0.5, 1].map((f) => {
    const v = top * f;
    return s('g', { class: 'grid' },
      s('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }),
      s('text', { x: PAD.left - 8, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, axisMoney(v, currency)));
  });
  // Day labels are thinned to what fits: every few days, the last one
  // always, and none closer than LABEL_GAP to one drawn (a 390 px screen
  // once drew the last two over each other).
  const every = Math.ceil(days.length / (narrow ? 3 : 6));
  const center = (i) => PAD.left + i * slot + slot / 2;
  const labelled = new Set();
  if (days.length) labelled.add(days.length - 1);
  const lastCenter = center(days.length - 1) - LABEL_GAP / 2;
  let prev = -Infinity;
  for (let i = 0; i < days.length - 1; i += every) {
    if (center(i) - prev >= LABEL_GAP && lastCenter - center(i) >= LABEL_GAP) {
      labelled.add(i);
      prev = center(i);
    }
  }
  const bars = days.map((d, i) => {
    const x = PAD.left + i * slot + (slot - barW) / 2;
    const value = Number(d.revenue);
    const hgt = value > 0 ? Math.max(2, PAD.top + plotH - y(value)) : 0;
    return s('g', {},
      s('rect', {
        class: 'bar', x, y: PAD.top + plotH - hgt, width: barW, height: hgt,
        dataset: { date: d.date, revenue: String(d.revenue) },
      }, s('title', {}, `${fmtDay(d.date)}: ${formatMoney(d.revenue, currency)}`)),
      labelled.has(i)
        ? s('text', { x: i === days.length - 1 ? x + barW : x + barW / 2, y: H - PAD.bottom + 18,
          'text-anchor': i === days.length - 1 ? 'end' : 'middle', class: 'axis' }, shortDay(d.date))
        : null);
  });
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-labelledby': `${titleId} ${descId}` },
    s('title', { id: titleId }, 'Revenue by day'),
    s('desc', { id: descId }, `${days.length} days from ${days.length ? fmtDay(days[0].date) : ''}; ${total} with revenue; highest ${formatMoney(round2(max), currency)}.`),
    grid,
    s('line', { class: 'baseline', x1: PAD.left, x2: W - PAD.right, y1: PAD.top + plotH, y2: PAD.top + plotH }),
    bars);
  return h('figure', { class: 'chart-figure' }, svg,
    h('details', {}, h('summary', {}, 'Revenue by day as a table'),
      h('table', { class: 'data compact' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day (UTC)'), h('th', { scope: 'col', class: 'num' }, 'Revenue'))),
        h('tbody', {}, days.map((d) => h('tr', {}, h('td', {}, fmtDay(d.date)), h('td', { class: 'num' }, formatMoney(d.revenue, currency))))))));
}

// niceCeil rounds an axis maximum up to 1, 2 or 5 times a power of ten.
function niceCeil(v) {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

const axisFormats = new Map();

// axisMoney writes an axis value in whole rupees (₹1,20,000): paise on a
// scale only make its labels long enough to run into the plot.
function axisMoney(v, currency) {
  let f = axisFormats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-IN', { style: 'currency', currency, maximumFractionDigits: 0, minimumFractionDigits: 0 });
    axisFormats.set(currency, f);
  }
  return f.format(Math.round(v));
}

// round2 keeps an axis label to paise (axis values are a display scale).
function round2(v) {
  return Math.round(v * 100) / 100;
}

function shortDay(day) {
  const d = new Date(day + 'T00:00:00Z');
  return new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(d);
}
