// Search-as-you-type pickers. Wherever the console needs a product,
// variant, customer, order, category or admin, the person types part of a
// name, SKU, number or email and picks one of the matches; the form sends
// the id. A picker is an ARIA combobox: a text input with a listbox popup,
// driven by the arrow keys, Enter and Esc, or the mouse. A multiple picker
// keeps its choices as removable chips.

import { h, replace, uid } from './dom.js';
import { errorNotice } from './ui.js';

// Typing waits this long for the next key before searching.
const DEBOUNCE_MS = 200;

/**
 * pickerInput builds a picker. spec: {id (of the text input, for its
 * label), source ({search(term) → Promise<[{id, label, hint}]>, minChars}),
 * value (an id, or ids when multiple), labels (Map id → {label, hint} of the
 * initial value), multiple, required, placeholder, describedBy, onPick(item)}.
 * The element's pickedValue() is the picked id ('' when none) or the ids.
 */
export function pickerInput(spec) {
  const listId = uid('listbox');
  const input = h('input', {
    id: spec.id, type: 'text', role: 'combobox', autocomplete: 'off', spellcheck: 'false',
    'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-controls': listId,
    'aria-describedby': spec.describedBy, placeholder: spec.placeholder || 'Type to search', required: spec.required,
  });
  const list = h('ul', { id: listId, role: 'listbox', class: 'picker-list', hidden: true });
  const status = h('p', { class: 'picker-status visually-hidden', 'aria-live': 'polite' });
  const chips = spec.multiple ? h('ul', { class: 'chips picker-chips' }) : null;
  const wrap = h('div', { class: ['picker', spec.multiple ? 'multiple' : ''] }, chips, input, list, status);
  const labels = new Map(spec.labels || []);
  let picked = spec.multiple ? [...(spec.value || [])] : (spec.value || '');
  let options = [];
  let active = -1;
  let timer = 0;
  let seq = 0;

  const show = (open) => {
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (!open) {
      active = -1;
      input.removeAttribute('aria-activedescendant');
    }
  };

  const drawChips = () => {
    if (!chips) return;
    replace(chips, picked.map((id) => {
      const l = labels.get(id) || { label: id };
      return h('li', { dataset: { id } }, l.label, l.hint ? h('span', { class: 'muted' }, ' ', l.hint) : null,
        h('button', { type: 'button', class: 'button small', 'aria-label': `Remove ${l.label}`, onclick: () => {
          picked = picked.filter((x) => x !== id);
          drawChips();
          input.focus();
        } }, '×'));
    }));
  };

  const choose = (item) => {
    labels.set(item.id, item);
    if (spec.multiple) {
      if (!picked.includes(item.id)) picked = [...picked, item.id];
      input.value = '';
      drawChips();
    } else {
      picked = item.id;
      input.value = item.label;
    }
    show(false);
    wrap.dispatchEvent(new Event('change', { bubbles: true }));
    if (spec.onPick) spec.onPick(item);
  };

  const highlight = (i) => {
    const items = list.querySelectorAll('[role=option]');
    items.forEach((el, j) => el.setAttribute('aria-selected', String(j === i)));
    active = i;
    if (items[i]) {
      input.setAttribute('aria-activedescendant', items[i].id);
      items[i].scrollIntoView({ block: 'nearest' });
    }
  };

  const draw = (found) => {
    options = spec.multiple ? found.filter((o) => !picked.includes(o.id)) : found;
    replace(list, options.length ? options.map((o, i) => h('li', {
      id: `${listId}-${i}`, role: 'option', 'aria-selected': 'false', class: 'picker-option', dataset: { id: o.id },
      // mousedown, not click: the input keeps its focus.
      onmousedown: (e) => { e.preventDefault(); choose(o); },
    }, h('span', { class: 'picker-label' }, o.label), o.hint ? h('span', { class: 'muted' }, ' ', o.hint) : null))
      : h('li', { class: 'picker-empty', role: 'presentation' }, 'No match'));
    status.textContent = `${options.length} ${options.length === 1 ? 'match' : 'matches'}`;
    show(true);
  };

  const search = async () => {
    const term = input.value.trim();
    const mine = ++seq;
    if (term.length < (spec.source.minChars ?? 2)) {
      show(false);
      return;
    }
    try {
      const found = await spec.source.search(term);
      if (mine === seq && document.activeElement === input) draw(found);
    } catch (err) {
      if (mine !== seq) return;
      replace(list, h('li', { role: 'presentation' }, errorNotice(err)));
      show(true);
    }
  };

  input.addEventListener('input', () => {
    if (!spec.multiple && picked) {
      // Typing over a choice takes it back: the field holds what is typed
      // until a match is picked.
      picked = '';
      wrap.dispatchEvent(new Event('change', { bubbles: true }));
    }
    clearTimeout(timer);
    timer = setTimeout(search, DEBOUNCE_MS);
  });
  input.addEventListener('focus', () => {
    if ((spec.source.minChars ?? 2) === 0 && !input.value) search();
  });
  input.addEventListener('keydown', (e) => {
    const open = !list.hidden && options.length > 0;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) search();
      else highlight(Math.min(active + 1, options.length - 1));
    } else if (e.key === 'ArrowUp' && open) {
      e.preventDefault();
      highlight(Math.max(active - 1, 0));
    } else if (e.key === 'Enter' && open && active >= 0) {
      e.preventDefault();
      choose(options[active]);
    } else if (e.key === 'Escape' && !list.hidden) {
      // Close the list, not the dialog around it.
      e.preventDefault();
      e.stopPropagation();
      show(false);
    }
  });
  input.addEventListener('blur', () => {
    show(false);
    // A single picker shows its choice again when left half-typed.
    if (!spec.multiple && picked && labels.has(picked)) input.value = labels.get(picked).label;
  });

  if (!spec.multiple && picked && labels.has(picked)) input.value = labels.get(picked).label;
  drawChips();
  wrap.pickedValue = () => (spec.multiple ? [...picked] : picked);
  wrap.control = input;
  return wrap;
}
