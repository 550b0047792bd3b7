// Discounts: codes and automatic promotions (percentage, fixed amount, buy X
// get Y, spend tiers, free shipping) and which others each combines with.

import { h } from '../dom.js';
import { crudPage } from '../crud.js';
import { badge } from '../ui.js';
import { sources, names } from '../sources.js';
import { formatMoney } from '../money.js';
import { fmtTime } from '../format.js';
import { currency } from '../session.js';

const TYPES = [['PERCENTAGE', 'Percentage'], ['FIXED_AMOUNT', 'Fixed amount'], ['buy_x_get_y', 'Buy X get Y'],
  ['tiered', 'Spend tiers'], ['free_shipping', 'Free shipping']];
const CLASSES = [['product', 'Product discounts'], ['order', 'Order discounts'], ['shipping', 'Free shipping']];

// tiersText writes tiers one a line: "1499: 200" (amount off) or "2999: 10%".
function tiersText(tiers) {
  return (tiers || []).map((t) => `${t.minSubtotal}: ${t.percentOff != null ? t.percentOff + '%' : t.amountOff}`).join('\n');
}

// parseTiers reads tiersText back; a line it cannot read is sent as it is
// read, for the API to name (tiers[i]).
function parseTiers(text) {
  return String(text || '').split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
    const [min, off] = l.split(':').map((x) => (x || '').trim());
    const tier = { minSubtotal: Number(min) };
    if (off.endsWith('%')) tier.percentOff = Number(off.slice(0, -1));
    else tier.amountOff = Number(off);
    return tier;
  });
}

function value(d) {
  const money = (v) => formatMoney(v, currency());
  switch (d.type) {
    case 'PERCENTAGE': return `${d.value}%`;
    case 'FIXED_AMOUNT': return money(d.value);
    case 'buy_x_get_y': return `Buy ${d.buy?.quantity} get ${d.get?.quantity} ${d.get?.percentOff === 100 ? 'free' : d.get?.percentOff + '% off'}`
      + (d.maxApplications ? `, at most ${d.maxApplications}×` : '');
    case 'tiered': return (d.tiers || []).map((t) => `${money(t.minSubtotal)}+: ${t.percentOff != null ? t.percentOff + '%' : money(t.amountOff)}`).join('; ');
    case 'free_shipping': return `Free shipping from ${money(d.minSubtotal)}`;
    default: return d.type;
  }
}

const labels = (ids, named) => (ids || []).map((id) => (named.get(id) || { label: 'a deleted item' }).label);

// scope names what a discount applies to.
function scope(d, named) {
  if (d.type === 'buy_x_get_y') {
    const side = (s) => [...labels(s?.productIds, named), ...labels(s?.collectionIds, named), ...labels(s?.categoryIds, named)].join(', ');
    return `Buy: ${side(d.buy)} · Get: ${side(d.get)}`;
  }
  if (d.type === 'free_shipping') return d.zoneIds?.length ? labels(d.zoneIds, named).join(', ') : 'Every zone';
  if (d.scope !== 'PRODUCT') return 'Whole order';
  const all = [...labels(d.productIds, named), ...labels(d.categoryIds, named)];
  return all.length ? all.join(', ') : 'No product or category yet';
}

function combines(d) {
  const on = CLASSES.filter(([k]) => d.combinesWith?.[k]).map(([, l]) => l.toLowerCase());
  return on.length ? on.join(', ') : 'nothing';
}

// The promotion fields of the form, flattened; body() folds them back.
const SIDE_FIELDS = ['buyQuantity', 'buyProductIds', 'buyCollectionIds', 'buyCategoryIds',
  'getQuantity', 'getProductIds', 'getCollectionIds', 'getCategoryIds', 'getPercentOff'];

function flatten(d) {
  return {
    ...d, productIds: d.productIds || [], categoryIds: d.categoryIds || [],
    buyQuantity: d.buy?.quantity ?? '', buyProductIds: d.buy?.productIds || [], buyCollectionIds: d.buy?.collectionIds || [],
    buyCategoryIds: d.buy?.categoryIds || [], getQuantity: d.get?.quantity ?? '', getProductIds: d.get?.productIds || [],
    getCollectionIds: d.get?.collectionIds || [], getCategoryIds: d.get?.categoryIds || [], getPercentOff: d.get?.percentOff ?? '',
    tiersText: tiersText(d.tiers), zoneIds: d.zoneIds || [],
    combinesWith: CLASSES.filter(([k]) => d.combinesWith?.[k]).map(([k]) => k),
  };
}

// body turns the form's values (an edit's changed ones only) into the API's
// body: the type's settings, whole, from the edited values over the row's.
function body(v, item) {
  const all = { ...(item ? flatten(item) : {}), ...v };
  const out = { ...v };
  for (const k of [...SIDE_FIELDS, 'tiersText']) delete out[k];
  if (v.type) out.valueType = v.type;
  const type = all.type;
  const promotion = ['buy_x_get_y', 'tiered', 'free_shipping'].includes(type);
  if (promotion) delete out.value;
  if (type === 'buy_x_get_y' && (!item || v.type || SIDE_FIELDS.some((k) => k in v))) {
    out.buy = { quantity: all.buyQuantity, productIds: all.buyProductIds, collectionIds: all.buyCollectionIds, categoryIds: all.buyCategoryIds };
    out.get = { quantity: all.getQuantity, productIds: all.getProductIds, collectionIds: all.getCollectionIds,
      categoryIds: all.getCategoryIds, percentOff: all.getPercentOff };
    if (!item && all.maxApplications === '') delete out.maxApplications;
  } else {
    delete out.maxApplications;
  }
  if (type === 'tiered' && (!item || v.type || 'tiersText' in v)) out.tiers = parseTiers(all.tiersText);
  if (type !== 'free_shipping') {
    delete out.minSubtotal;
    delete out.zoneIds;
  } else if (v.type && !('zoneIds' in out)) {
    out.zoneIds = all.zoneIds;
  }
  if ('combinesWith' in v) out.combinesWith = Object.fromEntries(CLASSES.map(([k]) => [k, v.combinesWith.includes(k)]));
  return out;
}

export async function discountsPage({ query, rerender }) {
  const named = new Map();
  const remember = (m) => m.forEach((v, k) => named.set(k, v));
  return crudPage({
    prepare: async (rows) => {
      const sides = rows.flatMap((d) => [d.buy, d.get]).filter(Boolean);
      const loaded = await Promise.all([
        names.products([...rows.flatMap((d) => d.productIds || []), ...sides.flatMap((s) => s.productIds || [])]),
        names.categories([...rows.flatMap((d) => d.categoryIds || []), ...sides.flatMap((s) => s.categoryIds || [])]),
        names.collections(sides.flatMap((s) => s.collectionIds || [])),
        names.zones(rows.flatMap((d) => d.zoneIds || [])),
      ]);
      loaded.forEach(remember);
    },
    title: 'Discounts', noun: 'discount', api: '/discounts', route: '/discounts/{}', query, rerender,
    name: (d) => d.code || d.description || 'this discount',
    filters: [
      { name: 'isActive', label: 'Active', type: 'select', options: [['', 'Any'], ['true', 'Active'], ['false', 'Inactive']] },
      { name: 'applicationType', label: 'Applied', type: 'select', options: [['', 'Any'], ['MANUAL', 'With a code'], ['AUTOMATIC', 'Automatically']] },
    ],
    columns: [
      { label: 'Code', cell: (d) => h('span', {}, d.code || h('em', {}, 'automatic'), d.description ? h('span', { class: 'muted' }, ' ' + d.description) : null) },
      { label: 'Value', cell: value },
      { label: 'Applies to', cell: (d) => scope(d, named) },
      { label: 'Combines with', cell: combines },
      { label: 'Used', class: 'num', cell: (d) => `${d.usageCount}${d.usageLimit ? ' / ' + d.usageLimit : ''}` },
      { label: 'Window', cell: (d) => `${d.startDate ? fmtTime(d.startDate) : 'any time'} – ${d.endDate ? fmtTime(d.endDate) : 'no end'}` },
      { label: 'State', cell: (d) => badge(d.isActive ? 'active' : 'inactive') },
    ],
    values: flatten,
    fields: () => [
      { name: 'code', label: 'Code', maxlength: 64, help: 'Empty for an automatic discount.', nullable: true },
      { name: 'description', label: 'Description', maxlength: 500, help: 'The title shoppers see in the cart.' },
      { name: 'type', label: 'Type', type: 'select', options: TYPES },
      { name: 'value', label: 'Value (percent or amount)', type: 'decimal', help: 'Percentage and fixed amount only.' },
      { name: 'applicationType', label: 'Applied', type: 'select', options: [['MANUAL', 'With a code'], ['AUTOMATIC', 'Automatically']] },
      { name: 'scope', label: 'Scope', type: 'select', options: [['ORDER', 'Whole order'], ['PRODUCT', 'Some products or categories']],
        help: 'Percentage and fixed amount only.' },
      { name: 'minOrderAmount', label: `Minimum order (${currency()})`, type: 'money' },
      { name: 'usageLimit', label: 'Uses in total', type: 'number', min: 1, nullable: true },
      { name: 'customerUsageLimit', label: 'Uses per customer', type: 'number', min: 1, nullable: true },
      { name: 'startDate', label: 'Starts', type: 'datetime', nullable: true },
      { name: 'endDate', label: 'Ends', type: 'datetime', nullable: true },
      { name: 'isActive', label: 'Active', type: 'checkbox' },
      { name: 'productIds', label: 'Products', type: 'picker', multiple: true, source: sources.product, labels: named, wide: true,
        help: 'With "Some products or categories": type part of a title or SKU and pick.' },
      { name: 'categoryIds', label: 'Categories', type: 'picker', multiple: true, source: sources.category, labels: named, wide: true },
      { name: 'buyQuantity', label: 'Buy X: units', type: 'number', min: 1, help: 'Buy X get Y: units that must be bought for each application.' },
      { name: 'buyProductIds', label: 'Buy X: products', type: 'picker', multiple: true, source: sources.product, labels: named, wide: true },
      { name: 'buyCollectionIds', label: 'Buy X: collections', type: 'picker', multiple: true, source: sources.collection, labels: named, wide: true },
      { name: 'buyCategoryIds', label: 'Buy X: categories', type: 'picker', multiple: true, source: sources.category, labels: named, wide: true },
      { name: 'getQuantity', label: 'Get Y: units', type: 'number', min: 1, help: 'The cheapest eligible units, never one counted as bought.' },
      { name: 'getProductIds', label: 'Get Y: products', type: 'picker', multiple: true, source: sources.product, labels: named, wide: true },
      { name: 'getCollectionIds', label: 'Get Y: collections', type: 'picker', multiple: true, source: sources.collection, labels: named, wide: true },
      { name: 'getCategoryIds', label: 'Get Y: categories', type: 'picker', multiple: true, source: sources.category, labels: named, wide: true },
      { name: 'getPercentOff', label: 'Get Y: percent off', type: 'decimal', help: '100 makes them free.' },
      { name: 'maxApplications', label: 'Buy X get Y: at most this many times', type: 'number', min: 1, nullable: true },
      { name: 'tiersText', label: 'Spend tiers', type: 'textarea', wide: true,
        help: `One a line, "minimum: amount off" or "minimum: percent%", e.g. "1499: 200" and "2999: 10%" (${currency()}).` },
      { name: 'minSubtotal', label: `Free shipping from (${currency()})`, type: 'money' },
      { name: 'zoneIds', label: 'Free shipping: zones', type: 'picker', multiple: true, source: sources.zone, labels: named, wide: true,
        help: 'None: every zone.' },
      { name: 'combinesWith', label: 'Combines with', type: 'checkboxes', options: CLASSES },
    ],
    defaults: { type: 'PERCENTAGE', applicationType: 'MANUAL', scope: 'ORDER', isActive: true, minOrderAmount: '0',
      buyQuantity: '', getQuantity: '', getPercentOff: '100', minSubtotal: '0', combinesWith: [] },
    toBody: body,
  });
}
