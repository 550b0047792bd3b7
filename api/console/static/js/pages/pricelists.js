// Price lists: per-variant prices for a customer group.

import { api } from '../api.js';
import { crudPage } from '../crud.js';
import { badge } from '../ui.js';
import { parseDecimal } from '../money.js';

function rulesText(rules) {
  return (rules || []).map((r) => [r.variantId, r.price, r.compareAtPrice ?? ''].join(' ').trim()).join('\n');
}

// parseRules reads one rule per line: variant id, price, optional compare-at price.
function parseRules(text) {
  return String(text || '').split('\n').map((l) => l.trim()).filter(Boolean).map((line, i) => {
    const [variantId, price, compareAtPrice] = line.split(/[\s,]+/);
    try {
      const rule = { variantId, price: parseDecimal(price || '') };
      if (compareAtPrice) rule.compareAtPrice = parseDecimal(compareAtPrice);
      return rule;
    } catch (err) {
      throw new Error(`Rule on line ${i + 1}: the price ${err.message}.`);
    }
  });
}

export async function priceListsPage({ query, rerender }) {
  const groups = (await api('GET', '/customer-groups?limit=100')).data;
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  return crudPage({
    title: 'Price lists', noun: 'price list', api: '/price-lists', route: '/price-lists/{}', query, rerender,
    name: (l) => l.name,
    intro: 'The active list with the highest priority for a customer\'s group sets the price of each variant it names.',
    columns: [
      { label: 'Name', cell: (l) => l.name },
      { label: 'Group', cell: (l) => groupName.get(l.customerGroupId) || l.customerGroupId },
      { label: 'Rules', class: 'num', cell: (l) => String(l.rules.length) },
      { label: 'Priority', class: 'num', cell: (l) => String(l.priority) },
      { label: 'State', cell: (l) => badge(l.isActive ? 'active' : 'inactive') },
    ],
    defaults: { isActive: true, priority: '0' },
    values: (l) => ({ ...l, rules: rulesText(l.rules) }),
    fields: () => [
      { name: 'name', label: 'Name', required: true, maxlength: 255 },
      { name: 'customerGroupId', label: 'Customer group', type: 'select', required: true, options: groups.map((g) => [g.id, g.name]) },
      { name: 'priority', label: 'Priority', type: 'number' },
      { name: 'isActive', label: 'Active', type: 'checkbox' },
      { name: 'description', label: 'Description', type: 'textarea' },
      { name: 'rules', label: 'Rules', type: 'textarea', rows: 6, wide: true,
        help: 'One per line: variant id, price, and optionally a compare-at price, separated by spaces.' },
    ],
    toBody: (v) => (v.rules === undefined ? v : { ...v, rules: parseRules(v.rules) }),
  });
}
