// A list of variant lines with quantities, as a transfer or a draft order
// holds them: variants are added through the variant picker (a variant
// picked again adds a unit to its line), quantities typed, lines removed.

import { h, replace, uid } from './dom.js';
import { button } from './ui.js';
import { pickerInput } from './picker.js';
import { sources } from './sources.js';

/**
 * linesEditor builds the editor. spec: {label (of the picker), lines
 * ([{variantId, quantity}]), names (Map variantId → {label, hint}),
 * onChange(lines) after every change, max (units a line may hold)}.
 * The element's lines() is the current [{variantId, quantity}].
 */
export function linesEditor(spec) {
  let lines = (spec.lines || []).map((l) => ({ variantId: l.variantId, quantity: l.quantity }));
  const names = spec.names || new Map();
  const body = h('div', { class: 'lines' });
  const changed = () => {
    draw();
    if (spec.onChange) spec.onChange(lines.map((l) => ({ ...l })));
  };

  function draw() {
    if (!lines.length) {
      replace(body, h('p', { class: 'empty' }, 'No lines yet: pick a variant below.'));
      return;
    }
    replace(body, h('table', { class: 'data compact' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Variant'), h('th', {}, 'SKU'), h('th', {}, 'Units'), h('th', {}, h('span', { class: 'visually-hidden' }, 'Remove')))),
      h('tbody', {}, lines.map((l) => {
        const n = names.get(l.variantId) || { label: 'A variant', hint: '' };
        const qty = h('input', { type: 'number', min: 1, max: spec.max || 1000000, step: 1, value: String(l.quantity), name: 'quantity',
          'aria-label': `Units of ${n.label}`, dataset: { variant: l.variantId } });
        qty.addEventListener('change', () => {
          const q = Number(qty.value);
          if (!Number.isInteger(q) || q < 1) {
            qty.value = String(l.quantity);
            return;
          }
          l.quantity = q;
          changed();
        });
        return h('tr', { dataset: { variant: l.variantId } }, h('td', {}, n.label), h('td', { class: 'muted' }, n.hint || ''), h('td', {}, qty),
          h('td', {}, button('Remove', () => { lines = lines.filter((x) => x !== l); changed(); },
            { kind: 'small', attrs: { 'aria-label': `Remove ${n.label}` } })));
      }))));
  }

  const id = uid('add-variant');
  const picker = pickerInput({
    id, source: sources.variant, placeholder: 'Title or SKU',
    onPick: (item) => {
      names.set(item.id, item);
      const same = lines.find((l) => l.variantId === item.id);
      if (same) same.quantity += 1;
      else lines.push({ variantId: item.id, quantity: 1 });
      // Empty the picker for the next variant (typing takes the choice back).
      picker.control.value = '';
      picker.control.dispatchEvent(new Event('input'));
      changed();
    },
  });
  draw();
  const el = h('div', { class: 'lines-editor' }, body,
    h('div', { class: 'field' }, h('label', { for: id }, spec.label || 'Add a variant'), picker));
  el.lines = () => lines.map((l) => ({ ...l }));
  return el;
}
