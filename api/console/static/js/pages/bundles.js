// Bundles: the list, and a bundle's sets and their items.

import { h } from '../dom.js';
import { api } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { crudPage } from '../crud.js';
import { pageHead, section, link, badge, button, confirm, errorNotice, facts, table, openDialog } from '../ui.js';
import { session } from '../session.js';
import { sources, names } from '../sources.js';

const bundleFields = () => [
  { name: 'title', label: 'Title', required: true, maxlength: 255 },
  { name: 'discountPercent', label: 'Discount (%)', type: 'rate' },
  { name: 'isActive', label: 'Active', type: 'checkbox' },
  { name: 'allowMixAndMatch', label: 'Mix and match', type: 'checkbox' },
  { name: 'description', label: 'Description', type: 'textarea' },
];

export async function bundlesPage({ query, rerender }) {
  return crudPage({
    title: 'Bundles', noun: 'bundle', api: '/bundles', route: '/bundles/{}', query, rerender,
    name: (b) => b.title,
    filters: [{ name: 'isActive', label: 'Active', type: 'select', options: [['', 'Any'], ['true', 'Active'], ['false', 'Inactive']] }],
    columns: [
      { label: 'Bundle', cell: (b) => link('/bundles/' + b.id, b.title) },
      { label: 'Sets', class: 'num', cell: (b) => String(b.sets.length) },
      { label: 'Discount', class: 'num', cell: (b) => `${b.discountPercent}%` },
      { label: 'State', cell: (b) => badge(b.isActive ? 'active' : 'inactive') },
    ],
    defaults: { isActive: true, discountPercent: '0' },
    fields: bundleFields,
  });
}

const setFields = () => [
  { name: 'title', label: 'Title', required: true, maxlength: 255 },
  { name: 'minQuantity', label: 'Pick at least', type: 'number', min: 0 },
  { name: 'maxQuantity', label: 'Pick at most', type: 'number', min: 1 },
  { name: 'sortOrder', label: 'Position', type: 'number' },
  { name: 'description', label: 'Description', type: 'textarea' },
];

const itemFields = (named) => [
  { name: 'variantId', label: 'Variant', type: 'picker', source: sources.variant, labels: named, required: true,
    placeholder: 'Product title or SKU' },
  { name: 'quantity', label: 'Units per pick', type: 'number', min: 1 },
  { name: 'sortOrder', label: 'Position', type: 'number' },
  { name: 'isDefault', label: 'Picked by default', type: 'checkbox' },
];

export async function bundlePage({ params, rerender }) {
  const id = encodeURIComponent(params.id);
  const b = await api('GET', '/bundles/' + id);
  const named = await names.variants(b.sets.flatMap((set) => set.items.map((it) => it.variantId)));
  const status = h('div', { class: 'form-status' });
  const can = allowed('PATCH', '/bundles/{}');
  const run = async (call, flash) => {
    try {
      await call();
      session.flash = flash;
      rerender();
    } catch (err) { status.replaceChildren(errorNotice(err)); }
  };
  const dialog = (title, fields, values, method, path, flash, patch) => {
    const close = openDialog(title, form({
      label: title, fields, values, patch, submit: 'Save',
      onSubmit: (v) => api(method, path, v),
      done: () => { close(); session.flash = flash; rerender(); },
    }));
  };
  return [
    pageHead(b.title, badge(b.isActive ? 'active' : 'inactive')),
    status,
    section('Bundle', can
      ? form({ label: 'Bundle', patch: true, values: b, fields: bundleFields(), submit: 'Save bundle',
        onSubmit: (v) => api('PATCH', '/bundles/' + id, v), done: () => { session.flash = 'Bundle saved.'; rerender(); } })
      : facts([['Discount', `${b.discountPercent}%`], ['Mix and match', b.allowMixAndMatch ? 'Yes' : 'No'], ['Description', b.description || '—']])),
    b.sets.map((set) => section(`Set: ${set.title}`,
      facts([['Pick', `${set.minQuantity} to ${set.maxQuantity}`], ['Position', String(set.sortOrder)]]),
      table([
        { label: 'Variant', cell: (it) => (named.has(it.variantId)
          ? h('span', {}, link('/products/' + named.get(it.variantId).variant.productId, named.get(it.variantId).label), h('br'),
            h('span', { class: 'muted' }, named.get(it.variantId).hint))
          : 'A deleted variant') },
        { label: 'Units per pick', class: 'num', cell: (it) => String(it.quantity) },
        { label: 'Default', cell: (it) => (it.isDefault ? 'Yes' : 'No') },
        can ? { label: 'Actions', cell: (it) => h('span', { class: 'row-actions' },
          button('Edit', () => dialog('Edit item', itemFields(named), it, 'PATCH', `/bundles/${id}/sets/${set.id}/items/${it.id}`, 'Item saved.', true), { kind: 'small' }),
          button('Remove', async () => {
            if (await confirm('Remove this item from the set?', 'Remove item', 'Keep item')) run(() => api('DELETE', `/bundles/${id}/sets/${set.id}/items/${it.id}`), 'Item removed.');
          }, { kind: 'small danger' })) } : null,
      ].filter(Boolean), set.items, { empty: 'No items in this set.' }),
      can ? h('div', { class: 'actions' },
        button('Add item', () => dialog('New item', itemFields(named), { quantity: '1' }, 'POST', `/bundles/${id}/sets/${set.id}/items`, 'Item added.')),
        button('Edit set', () => dialog('Edit set', setFields(), set, 'PATCH', `/bundles/${id}/sets/${set.id}`, 'Set saved.', true)),
        button('Delete set', async () => {
          if (await confirm(`Delete the set ${set.title}?`, 'Delete set', 'Keep set')) run(() => api('DELETE', `/bundles/${id}/sets/${set.id}`), 'Set deleted.');
        }, { kind: 'danger' })) : null)),
    can ? h('p', {}, button('Add a set', () => dialog('New set', setFields(), { minQuantity: '1', maxQuantity: '1' }, 'POST', `/bundles/${id}/sets`, 'Set added.'), { kind: 'primary' })) : null,
  ];
}
