// Inventory overview and bulk stock updates by SKU, as a stock sheet has
// them: the update is queued as a job whose progress is followed until it
// ends.

import { h } from '../dom.js';
import { api } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, facts, jobPanel } from '../ui.js';
import { formatMoney } from '../money.js';
import { currency } from '../session.js';

const OPERATIONS = new Set(['set', 'add', 'subtract']);

// parseUpdates reads one update per line: SKU, operation, units (a
// spreadsheet's columns pasted, or typed with spaces or commas).
function parseUpdates(text) {
  return String(text || '').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).map((line, i) => {
    const [sku, operation, units] = line.split(/[\s,;]+/);
    if (!OPERATIONS.has((operation || '').toLowerCase()) || !/^\d+$/.test(units || '')) {
      throw new Error(`Line ${i + 1} must read: SKU, set|add|subtract, units.`);
    }
    return { sku, operation: operation.toLowerCase(), inventory: Number(units) };
  });
}

// lineOf words a refusal of updates[i] by the line of the text it came
// from; the error stays the server's answer (the form renews its key).
function lineOf(err, text) {
  const m = /^updates\[(\d+)\]/.exec((err && err.field) || '');
  if (!m) return err;
  const lines = String(text).split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  err.message = `Line ${Number(m[1]) + 1} (${lines[Number(m[1])]}): ${err.issue || err.message}.`;
  return err;
}

export async function inventoryPage() {
  const o = await api('GET', '/inventory/overview');
  const jobs = h('div', { class: 'jobs' });
  return [
    pageHead('Inventory'),
    h('div', { class: 'stats' },
      stat('Variants', o.totalVariants), stat('In stock', o.inStockVariants), stat('Low stock', o.lowStockVariants),
      stat('Out of stock', o.outOfStockVariants), stat('Stock value', formatMoney(o.totalValue, o.currency || currency()))),
    section('Reserved units', facts([
      ['Held by checkouts', String(o.reservedInventory.byCart)],
      ['Committed to unshipped orders', String(o.reservedInventory.byOrder)],
      ['Total', String(o.reservedInventory.total)],
    ])),
    allowed('POST', '/inventory/bulk-update') ? section('Bulk update',
      h('p', { class: 'help' }, 'Up to 1000 lines. Every line is checked first; if any is refused nothing is queued. The worker then applies them all in one transaction.'),
      form({
        label: 'Bulk update',
        fields: [{ name: 'updates', label: 'Updates', type: 'textarea', rows: 8, required: true, wide: true,
          placeholder: 'TEE-BLK-M add 25\nTEE-BLK-L set 100',
          help: 'One per line: SKU, operation (set, add or subtract), units. Columns pasted from a spreadsheet work too.' }],
        submit: 'Queue update',
        onSubmit: (v, { key }) => api('POST', '/inventory/bulk-update', { updates: parseUpdates(v.updates) }, { headers: { 'Idempotency-Key': key } })
          .catch((err) => { throw lineOf(err, v.updates); }),
        done: (res, el) => {
          jobs.prepend(jobPanel(res.jobId, 'Bulk update'));
          el.reset();
        },
      }),
      jobs) : null,
  ];
}

function stat(title, value) {
  return h('div', { class: 'stat card' }, h('p', { class: 'stat-label' }, title), h('p', { class: 'stat-value' }, String(value)));
}
