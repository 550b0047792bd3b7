// Product page: edit, archive or delete the product; its variants with
// stock adjustment and their stock per location; pricing with
// customer-group overrides; collections.

import { h, replace } from '../dom.js';
import { api, ApiError, referenceList } from '../api.js';
import { form } from '../forms.js';
import { allowed, can } from '../perm.js';
import { navigate } from '../router.js';
import { pageHead, section, facts, badge, button, confirm, errorNotice, link, table } from '../ui.js';
import { formatMoney, formatRate, parseDecimal } from '../money.js';
import { fmtTime } from '../format.js';
import { session, currency } from '../session.js';
import { categoryOptions, productFields, scheduledRate } from './products.js';
import { mediaPanel } from '../media.js';

export async function productPage({ params, rerender }) {
  const id = encodeURIComponent(params.id);
  const [p, cats] = await Promise.all([api('GET', '/products/' + id), categoryOptions()]);
  const cur = currency();
  const status = h('div', { class: 'form-status' });
  const fail = (err) => status.replaceChildren(errorNotice(err));

  const headActions = [];
  if (allowed('PATCH', '/products/{}') && p.status !== 'archived') {
    headActions.push(button('Archive', async () => {
      if (!(await confirm(`Archive ${p.title}? It leaves the storefront.`, 'Archive product', 'Keep product'))) return;
      try {
        await api('PATCH', `/products/${id}`, { status: 'archived' });
        session.flash = 'Product archived.';
        rerender();
      } catch (err) { fail(err); }
    }));
  }
  if (allowed('DELETE', '/products/{}')) {
    headActions.push(button('Delete', async () => {
      if (!(await confirm(`Delete ${p.title}? A product with orders is archived instead.`, 'Delete product', 'Keep product'))) return;
      try {
        await api('DELETE', `/products/${id}`);
        session.flash = (await deletedOrArchived(id)) === 'archived'
          ? `${p.title} has orders, so it was archived instead of deleted: it left the storefront and stays in past orders.`
          : `${p.title} deleted.`;
        navigate('/products');
      } catch (err) { fail(err); }
    }, { kind: 'danger' }));
  }

  const details = allowed('PATCH', '/products/{}')
    ? form({
      label: 'Product details',
      patch: true,
      values: { ...p, categoryId: p.categoryId || '' },
      fields: productFields(cats, { canPrice: can('pricing.write'), scheduled: p.scheduledGstRate, unit: p.unit }),
      submit: 'Save product',
      onSubmit: (v) => api('PATCH', `/products/${id}`, v),
      done: () => { session.flash = 'Product saved.'; rerender(); },
    })
    : facts([
      ['Status', badge(p.status)], ['Price', formatMoney(p.price, cur)], ['GST', formatRate(p.gstRate)],
      p.scheduledGstRate ? ['Scheduled GST', scheduledRate(p.scheduledGstRate)] : null,
      ['HSN code', p.hsnCode || '—'], ['Unit', p.unit || '—'], ['Compensation cess', formatRate(p.cessRate)],
      ['Slug', p.slug], ['Description', p.description || '—'],
    ]);

  return [
    pageHead(p.title, badge(p.status), ...headActions),
    status,
    h('p', { class: 'muted' }, `Created ${fmtTime(p.createdAt)} · updated ${fmtTime(p.updatedAt)}`),
    section('Details', details),
    section('Images', await mediaPanel(p)),
    section('Variants', variantsList(p, rerender), allowed('POST', '/products/{}/variants') ? newVariantForm(p, rerender) : null),
    section('Pricing', allowed('PATCH', '/products/{}/pricing') ? await pricingForm(p, rerender) : await pricingFacts(p)),
    section('Collections', await collectionsPanel(p, rerender)),
  ];
}

function variantsList(p, rerender) {
  if (!p.variants.length) return h('p', { class: 'empty' }, 'No variants yet: a product is sold through its variants.');
  const cur = currency();
  return h('div', { class: 'variants' }, p.variants.map((v) => {
    const status = h('div', { class: 'form-status' });
    const parts = [];
    if (allowed('PATCH', '/variants/{}/inventory')) {
      parts.push(form({
        label: `Adjust stock of ${v.sku}`,
        class: 'inline',
        values: { operation: 'add' },
        fields: [
          { name: 'operation', label: 'Operation', type: 'select', options: [['add', 'Add'], ['subtract', 'Subtract'], ['set', 'Set to']] },
          { name: 'inventory', label: 'Units', type: 'number', required: true, min: 0 },
        ],
        submit: 'Adjust stock',
        onSubmit: (body) => api('PATCH', `/variants/${v.id}/inventory`, body),
        done: (res) => { session.flash = `${v.sku}: ${res.inventory} on hand, ${res.available} available.`; rerender(); },
      }));
    }
    if (allowed('PATCH', '/variants/{}')) {
      parts.push(h('details', {}, h('summary', {}, 'Edit variant'), form({
        label: `Edit ${v.sku}`,
        patch: true,
        values: v,
        fields: variantFields({ withStock: false }),
        submit: 'Save variant',
        onSubmit: (body) => api('PATCH', `/variants/${v.id}`, body),
        done: () => { session.flash = `${v.sku} saved.`; rerender(); },
      })));
    }
    if (allowed('DELETE', '/variants/{}')) {
      parts.push(button('Delete variant', async () => {
        if (!(await confirm(`Delete variant ${v.sku}?`, 'Delete variant', 'Keep variant'))) return;
        try {
          await api('DELETE', `/variants/${v.id}`);
          session.flash = `${v.sku} deleted.`;
          rerender();
        } catch (err) { status.replaceChildren(errorNotice(err)); }
      }, { kind: 'small danger' }));
    }
    return h('article', { class: 'variant card', dataset: { sku: v.sku } },
      h('h3', {}, v.sku, ' ', h('span', { class: 'muted' }, [v.size, v.color].filter(Boolean).join(' · '))),
      facts([
        ['Price', v.price === null ? `${formatMoney(p.price, cur)} (product price)` : formatMoney(v.price, cur)],
        ['On hand', String(v.inventory)],
        ['Reserved', String(v.reserved)],
        ['Committed', String(v.committed)],
        ['Available', h('strong', { class: 'available' }, String(v.available))],
        ['Low-stock threshold', v.lowStockThreshold === null ? 'default' : String(v.lowStockThreshold)],
        v.weight !== null && v.weight !== undefined ? ['Weight', String(v.weight)] : null,
      ]),
      allowed('GET', '/variants/{}/stock') ? stockByLocation(v) : null,
      status, parts);
  }));
}

// stockByLocation is a variant's units per location, asked for when it is
// opened: the page stays within its request budget however many variants
// the product has.
function stockByLocation(v) {
  const box = h('div', { class: 'stock-levels' }, h('p', { class: 'muted' }, 'Loading…'));
  const el = h('details', { class: 'stock-by-location', dataset: { variant: v.id } }, h('summary', {}, 'Stock per location'), box);
  el.addEventListener('toggle', () => {
    if (!el.open || el.dataset.loaded) return;
    el.dataset.loaded = 'true';
    api('GET', `/variants/${v.id}/stock`).then((res) => {
      replace(box, table([
        { label: 'Location', cell: (l) => h('span', {}, l.locationName, ' ', h('span', { class: 'muted' }, l.locationCode),
          l.sellsOnline ? null : h('span', { class: 'muted' }, ' (not selling online)')) },
        { label: 'On hand', class: 'num', cell: (l) => String(l.onHand) },
        { label: 'Committed', class: 'num', cell: (l) => String(l.committed) },
        { label: 'Available', class: 'num', cell: (l) => String(l.available) },
      ], res.data, { empty: 'No units at any location.', caption: `Stock of ${v.sku} per location`, compact: true }),
      res.total.inTransit ? h('p', { class: 'muted' }, `${res.total.inTransit} in transit between locations.`) : null);
    }).catch((err) => {
      delete el.dataset.loaded;
      box.replaceChildren(errorNotice(err));
    });
  });
  return el;
}

function variantFields({ withStock }) {
  return [
    { name: 'sku', label: 'SKU', required: true, maxlength: 100 },
    { name: 'size', label: 'Size', maxlength: 50 },
    { name: 'color', label: 'Colour', maxlength: 50 },
    can('pricing.write') ? { name: 'price', label: `Price (${currency()}), empty for the product's`, type: 'money', nullable: true } : null,
    withStock && can('inventory.write') ? { name: 'inventory', label: 'Units on hand', type: 'number', min: 0 } : null,
    { name: 'lowStockThreshold', label: 'Low-stock threshold', type: 'number', min: 0, nullable: true, help: 'Empty uses the store default.' },
    { name: 'weight', label: 'Weight (kg)', type: 'decimal', nullable: true },
  ];
}

function newVariantForm(p, rerender) {
  return h('details', { open: !p.variants.length, class: 'new-variant' }, h('summary', {}, 'Add a variant'), form({
    label: 'New variant',
    fields: variantFields({ withStock: true }),
    submit: 'Add variant',
    onSubmit: (v) => api('POST', `/products/${p.id}/variants`, v),
    done: (v) => { session.flash = `Variant ${v.sku} added.`; rerender(); },
  }));
}

// deletedOrArchived tells what a DELETE of a product did: the API answers
// 204 either way, and a product with orders is archived, not deleted.
async function deletedOrArchived(id) {
  try {
    const left = await api('GET', '/products/' + id);
    return left.status === 'archived' ? 'archived' : 'deleted';
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return 'deleted';
    throw err;
  }
}

async function customerGroups() {
  try {
    return await referenceList('/customer-groups');
  } catch {
    return [];
  }
}

async function pricingFacts(p) {
  const cur = currency();
  const overrides = Object.entries(p.customerGroupOverrides || {});
  const groups = new Map((overrides.length ? await customerGroups() : []).map((g) => [g.id, g.name]));
  return facts([['Price', formatMoney(p.price, cur)], ['Compare-at price', p.compareAtPrice === null ? '—' : formatMoney(p.compareAtPrice, cur)],
    ...overrides.map(([g, v]) => [`${groups.get(g) || 'A deleted group'} price`, formatMoney(v, cur)])]);
}

async function pricingForm(p, rerender) {
  const groups = await customerGroups();
  const overrides = p.customerGroupOverrides || {};
  const inputs = groups.map((g) => {
    const id = `override-${g.id}`;
    const input = h('input', { id, type: 'text', inputmode: 'decimal', value: overrides[g.id] !== undefined ? String(overrides[g.id]) : '', autocomplete: 'off' });
    return { g, input, initial: input.value, node: h('div', { class: 'field' }, h('label', { for: id }, `${g.name} price`), input) };
  });
  return form({
    label: 'Pricing',
    patch: true,
    allowEmpty: true,
    values: p,
    fields: [
      { name: 'price', label: `Price (${currency()}, GST included)`, type: 'money', required: true },
      { name: 'compareAtPrice', label: 'Compare-at price', type: 'money', nullable: true, help: 'Shown struck through; empty for none.' },
    ],
    extra: groups.length
      ? [h('h3', {}, 'Customer-group prices'), h('p', { class: 'help' }, 'Empty means the group pays the product price.'), h('div', { class: 'grid2' }, inputs.map((i) => i.node))]
      : h('p', { class: 'help' }, 'Create customer groups to give them their own prices.'),
    submit: 'Save pricing',
    onSubmit: (body) => {
      if (inputs.some((i) => i.input.value.trim() !== i.initial)) {
        const map = {};
        for (const i of inputs) {
          const text = i.input.value.trim();
          if (!text) continue;
          try {
            map[i.g.id] = parseDecimal(text);
          } catch (err) {
            throw new Error(`${i.g.name} price ${err.message}.`);
          }
        }
        body.customerGroupOverrides = map;
      }
      if (!Object.keys(body).length) return Promise.reject(new Error('Nothing changed.'));
      return api('PATCH', `/products/${p.id}/pricing`, body);
    },
    done: () => { session.flash = 'Pricing saved.'; rerender(); },
  });
}

async function collectionsPanel(p, rerender) {
  const status = h('div', { class: 'form-status' });
  const canEdit = allowed('POST', '/collections/{}/products/{}');
  const list = p.collections.length
    ? h('ul', { class: 'chips' }, p.collections.map((c) => h('li', {}, link('/collections/' + c.id, c.name),
      canEdit ? button('Remove', async () => {
        try {
          await api('DELETE', `/collections/${c.id}/products/${p.id}`);
          session.flash = `Removed from ${c.name}.`;
          rerender();
        } catch (err) { status.replaceChildren(errorNotice(err)); }
      }, { kind: 'small', attrs: { 'aria-label': `Remove from ${c.name}` } }) : null)))
    : h('p', { class: 'empty' }, 'In no collection.');
  if (!canEdit) return list;
  const all = (await referenceList('/collections')).filter((c) => !p.collections.some((x) => x.id === c.id));
  return [status, list, all.length ? form({
    label: 'Add to collection',
    class: 'inline',
    fields: [{ name: 'collectionId', label: 'Collection', type: 'select', options: all.map((c) => [c.id, c.name]) }],
    submit: 'Add',
    onSubmit: (v) => api('POST', `/collections/${v.collectionId}/products/${p.id}`),
    done: () => { session.flash = 'Added to the collection.'; rerender(); },
  }) : null];
}

