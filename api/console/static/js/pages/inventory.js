// Inventory overview and bulk stock updates: the update is queued as a job
// whose progress is followed until it ends.

import { h } from '../dom.js';
import { api } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, facts, jobPanel } from '../ui.js';
import { formatMoney } from '../money.js';
import { currency } from '../session.js';

const OPERATIONS = new Set(['set', 'add', 'subtract']);

// parseUpdates reads one update per line: variant id, operation, units.
function parseUpdates(text) {
  return String(text || '').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).map((line, i) => {
    const [variantId, operation, units] = line.split(/[\s,;]+/);
    if (!OPERATIONS.has(operation) || !/^\d+$/.test(units || '')) {
      throw new Error(`Line ${i + 1} must read: variant id, set|add|subtract, units.`);
    }
    return { variantId, operation, inventory: Number(units) };
  });
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
          placeholder: '3f0c…-variant-id add 25\n9a1b…-variant-id set 100',
          help: 'One per line: variant id, operation (set, add or subtract), units.' }],
        submit: 'Queue update',
        onSubmit: (v) => api('POST', '/inventory/bulk-update', { updates: parseUpdates(v.updates) }),
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
