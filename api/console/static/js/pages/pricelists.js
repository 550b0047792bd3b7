// Price lists: per-variant prices for a customer group, written one rule a
// line by SKU (the console finds each SKU's variant).

import { api, ApiError, referenceList } from '../api.js';
import { crudPage } from '../crud.js';
import { badge } from '../ui.js';
import { parseDecimal } from '../money.js';
import { names, variantsBySKU } from '../sources.js';

// rulesText writes rules one a line: SKU, price, compare-at price.
function rulesText(rules, variants) {
  return (rules || []).map((r) => [(variants.get(r.variantId) || { hint: r.variantId }).hint, r.price, r.compareAtPrice ?? ''].join(' ').trim()).join('\n');
}

// parseRules reads one rule per line: SKU, price, optional compare-at
// price; SKUs no variant has are refused with their line.
async function parseRules(text) {
  const lines = String(text || '').split('\n').map((l) => l.trim()).filter(Boolean).map((line, i) => {
    const [sku, price, compareAtPrice] = line.split(/[\s,]+/);
    try {
      const rule = { sku, price: parseDecimal(price || '') };
      if (compareAtPrice) rule.compareAtPrice = parseDecimal(compareAtPrice);
      return rule;
    } catch (err) {
      throw new Error(`Rule on line ${i + 1}: the price ${err.message}.`);
    }
  });
  const bySKU = await variantsBySKU(lines.map((r) => r.sku));
  return lines.map(({ sku, ...rule }, i) => {
    const v = bySKU.get(sku);
    if (!v) throw new ApiError(400, { error: { message: `Rule on line ${i + 1}: no variant has the SKU ${sku}.`, details: { field: 'rules' } } });
    return { variantId: v.id, ...rule };
  });
}

export async function priceListsPage({ query, rerender }) {
  const groups = await referenceList('/customer-groups');
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  let variants = new Map();
  return crudPage({
    title: 'Price lists', noun: 'price list', api: '/price-lists', route: '/price-lists/{}', query, rerender,
    name: (l) => l.name,
    intro: 'The active list with the highest priority for a customer\'s group sets the price of each variant it names.',
    prepare: async (rows) => {
      variants = await names.variants(rows.flatMap((l) => l.rules.map((r) => r.variantId)));
    },
    columns: [
      { label: 'Name', cell: (l) => l.name },
      { label: 'Group', cell: (l) => groupName.get(l.customerGroupId) || 'A deleted group' },
      { label: 'Rules', class: 'num', cell: (l) => String(l.rules.length) },
      { label: 'Priority', class: 'num', cell: (l) => String(l.priority) },
      { label: 'State', cell: (l) => badge(l.isActive ? 'active' : 'inactive') },
    ],
    defaults: { isActive: true, priority: '0' },
    values: (l) => ({ ...l, rules: rulesText(l.rules, variants) }),
    fields: () => [
      { name: 'name', label: 'Name', required: true, maxlength: 255 },
      { name: 'customerGroupId', label: 'Customer group', type: 'select', required: true, options: groups.map((g) => [g.id, g.name]) },
      { name: 'priority', label: 'Priority', type: 'number' },
      { name: 'isActive', label: 'Active', type: 'checkbox' },
      { name: 'description', label: 'Description', type: 'textarea' },
      { name: 'rules', label: 'Rules', type: 'textarea', rows: 6, wide: true,
        help: 'One per line: SKU, price, and optionally a compare-at price, separated by spaces.' },
    ],
    toBody: async (v) => (v.rules === undefined ? v : { ...v, rules: await parseRules(v.rules) }),
  });
}
