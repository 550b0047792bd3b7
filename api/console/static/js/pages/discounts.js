// Discounts: codes and automatic promotions.

import { h } from '../dom.js';
import { crudPage } from '../crud.js';
import { badge } from '../ui.js';
import { sources, names } from '../sources.js';
import { formatMoney } from '../money.js';
import { fmtTime } from '../format.js';
import { currency } from '../session.js';

function value(d) {
  return d.type === 'PERCENTAGE' ? `${d.value}%` : formatMoney(d.value, currency());
}

// scope names what a discount applies to.
function scope(d, named) {
  if (d.scope !== 'PRODUCT') return 'Whole order';
  const all = [...(d.productIds || []), ...(d.categoryIds || [])].map((id) => (named.get(id) || { label: 'a deleted item' }).label);
  return all.length ? all.join(', ') : 'No product or category yet';
}

export async function discountsPage({ query, rerender }) {
  const named = new Map();
  const remember = (m) => m.forEach((v, k) => named.set(k, v));
  return crudPage({
    prepare: async (rows) => {
      const [products, categories] = await Promise.all([
        names.products(rows.flatMap((d) => d.productIds || [])),
        names.categories(rows.flatMap((d) => d.categoryIds || [])),
      ]);
      remember(products);
      remember(categories);
    },
    title: 'Discounts', noun: 'discount', api: '/discounts', route: '/discounts/{}', query, rerender,
    name: (d) => d.code || d.description || 'this discount',
    filters: [
      { name: 'isActive', label: 'Active', type: 'select', options: [['', 'Any'], ['true', 'Active'], ['false', 'Inactive']] },
      { name: 'applicationType', label: 'Applied', type: 'select', options: [['', 'Any'], ['MANUAL', 'With a code'], ['AUTOMATIC', 'Automatically']] },
    ],
    columns: [
      { label: 'Code', cell: (d) => h('span', {}, d.code || h('em', {}, 'automatic'), d.description ? h('span', { class: 'muted' }, ' ' + d.description) : null) },
      { label: 'Value', class: 'num', cell: value },
      { label: 'Applies to', cell: (d) => scope(d, named) },
      { label: 'Used', class: 'num', cell: (d) => `${d.usageCount}${d.usageLimit ? ' / ' + d.usageLimit : ''}` },
      { label: 'Window', cell: (d) => `${d.startDate ? fmtTime(d.startDate) : 'any time'} – ${d.endDate ? fmtTime(d.endDate) : 'no end'}` },
      { label: 'State', cell: (d) => badge(d.isActive ? 'active' : 'inactive') },
    ],
    values: (d) => ({ ...d, productIds: d.productIds || [], categoryIds: d.categoryIds || [] }),
    fields: () => [
      { name: 'code', label: 'Code', maxlength: 64, help: 'Empty for an automatic discount.', nullable: true },
      { name: 'description', label: 'Description', maxlength: 500 },
      { name: 'type', label: 'Type', type: 'select', options: [['PERCENTAGE', 'Percentage'], ['FIXED_AMOUNT', 'Fixed amount']] },
      { name: 'value', label: 'Value (percent or amount)', type: 'decimal', required: true },
      { name: 'applicationType', label: 'Applied', type: 'select', options: [['MANUAL', 'With a code'], ['AUTOMATIC', 'Automatically']] },
      { name: 'scope', label: 'Scope', type: 'select', options: [['ORDER', 'Whole order'], ['PRODUCT', 'Some products or categories']] },
      { name: 'minOrderAmount', label: `Minimum order (${currency()})`, type: 'money' },
      { name: 'usageLimit', label: 'Uses in total', type: 'number', min: 1, nullable: true },
      { name: 'customerUsageLimit', label: 'Uses per customer', type: 'number', min: 1, nullable: true },
      { name: 'startDate', label: 'Starts', type: 'datetime', nullable: true },
      { name: 'endDate', label: 'Ends', type: 'datetime', nullable: true },
      { name: 'isActive', label: 'Active', type: 'checkbox' },
      { name: 'productIds', label: 'Products', type: 'picker', multiple: true, source: sources.product, labels: named, wide: true,
        help: 'With "Some products or categories": type part of a title or SKU and pick.' },
      { name: 'categoryIds', label: 'Categories', type: 'picker', multiple: true, source: sources.category, labels: named, wide: true },
    ],
    defaults: { type: 'PERCENTAGE', applicationType: 'MANUAL', scope: 'ORDER', isActive: true, minOrderAmount: '0' },
    // valueType always equals type (the API names both).
    toBody: (v) => (v.type ? { ...v, valueType: v.type } : v),
  });
}
