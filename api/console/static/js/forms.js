// Forms with labelled controls. Values are read into the API's JSON shapes
// (amounts as exact Decimals), a refused call's error is shown next to the
// field its details.field names (else above the form), and an edit form
// sends only the fields that changed, so a role that may not change a field
// (a staff member and a price) can still save the others.

import { h, replace, uid } from './dom.js';
import { ApiError, keyedSender } from './api.js';
import { parseDecimal, toPaise, fromPaise } from './money.js';
import { toISO, toLocalInput } from './format.js';
import { errorNotice, notice, confirm } from './ui.js';
import { pickerInput } from './picker.js';

function options(list) {
  return (list || []).map((o) => (Array.isArray(o) ? o : [o, o]));
}

// rawOf is a field's initial value as its control shows it.
function rawOf(f, value) {
  if (value === undefined || value === null) {
    if (f.type === 'picker') return f.multiple ? [] : '';
    return f.type === 'checkbox' ? false : f.type === 'checkboxes' ? [] : '';
  }
  switch (f.type) {
    case 'picker': return f.multiple ? [...value] : String(value);
    case 'checkbox': return Boolean(value);
    case 'checkboxes': return [...value];
    case 'list': return Array.isArray(value) ? value.join(', ') : String(value);
    case 'datetime': return toLocalInput(value);
    case 'money': return typeof value === 'number' ? fromPaise(toPaise(value)) : String(value);
    default: return String(value);
  }
}

function control(f, id, raw, describedBy) {
  const common = { id, name: f.name, required: f.required, disabled: f.disabled, readonly: f.readonly, 'aria-describedby': describedBy };
  switch (f.type) {
    case 'picker':
      return pickerInput({ id, source: f.source, value: raw, labels: f.labels, multiple: f.multiple, required: f.required,
        placeholder: f.placeholder, describedBy, onPick: f.onPick });
    case 'textarea':
      return h('textarea', { ...common, rows: f.rows || 3, placeholder: f.placeholder, maxlength: f.maxlength }, raw);
    case 'select':
      return h('select', common, options(f.options).map(([v, text]) => h('option', { value: v, selected: String(v) === raw }, text)));
    case 'checkbox':
      return h('input', { ...common, type: 'checkbox', checked: raw });
    case 'checkboxes':
      return h('div', { class: 'checks', role: 'group', 'aria-labelledby': id + '-legend', id }, options(f.options).map(([v, text]) => {
        const cid = uid('c');
        return h('span', { class: 'check' },
          h('input', { type: 'checkbox', id: cid, name: f.name, value: v, checked: raw.includes(v), disabled: f.disabled }),
          h('label', { for: cid }, text));
      }));
    default: {
      const types = { money: 'text', rate: 'text', decimal: 'text', number: 'number', date: 'date', datetime: 'datetime-local', list: 'text', uuid: 'text' };
      const inputmode = { money: 'decimal', rate: 'decimal', decimal: 'decimal' }[f.type];
      return h('input', {
        ...common, type: types[f.type] || f.type || 'text', value: raw, inputmode: f.inputmode || inputmode,
        autocomplete: f.autocomplete || 'off', placeholder: f.placeholder, min: f.min, max: f.max, step: f.type === 'number' ? 1 : undefined,
        maxlength: f.maxlength, pattern: f.pattern, spellcheck: f.type === 'uuid' ? 'false' : undefined,
      });
    }
  }
}

// read returns a field's current raw value.
function read(f, el) {
  if (f.type === 'picker') return el.pickedValue();
  if (f.type === 'checkbox') return el.checked;
  if (f.type === 'checkboxes') return [...el.querySelectorAll('input:checked')].map((c) => c.value);
  return el.value;
}

// convert turns a raw value into the JSON value sent; throws with the issue.
function convert(f, raw) {
  if (f.type === 'checkbox') return raw;
  if (f.type === 'checkboxes') return raw;
  if (f.type === 'picker' && f.multiple) return raw;
  const text = typeof raw === 'string' ? raw.trim() : raw;
  if (text === '' && f.type === 'list') return [];
  if (text === '') {
    if (f.required) throw new Error('is required');
    return f.nullable ? null : undefined;
  }
  switch (f.type) {
    case 'money': case 'rate': case 'decimal': return parseDecimal(text);
    case 'number':
      if (!/^-?\d+$/.test(text)) throw new Error('must be a whole number');
      return Number(text);
    case 'datetime': return toISO(text);
    case 'list': return text.split(/[\s,]+/).filter(Boolean);
    default: return text;
  }
}

function same(a, b) {
  return Array.isArray(a) ? JSON.stringify([...a].sort()) === JSON.stringify([...b].sort()) : a === b;
}

/**
 * form builds a <form>. spec: {fields, values (initial), submit (button
 * text), patch (send changed fields only), onSubmit(body, {key}) → Promise,
 * done(result, form) after success, extra (nodes before the button),
 * confirm(body) → {message, yes, no} to ask before sending (null: send)}.
 * A field: {name, label, type, required, nullable, options, help, disabled,
 * send (false: shown but not sent)}.
 */
export function form(spec) {
  const fields = spec.fields.filter(Boolean);
  const values = spec.values || {};
  const status = h('div', { class: 'form-status' });
  const el = h('form', { class: ['form', spec.class], novalidate: true, 'aria-label': spec.label });
  const controls = new Map();
  const keys = keyedSender();

  el.append(status);
  for (const f of fields) {
    const id = uid(f.name.replace(/\W/g, ''));
    const errId = id + '-err';
    const helpId = f.help ? id + '-help' : '';
    const raw = rawOf(f, f.value !== undefined ? f.value : values[f.name]);
    const input = control(f, id, raw, [errId, helpId].filter(Boolean).join(' '));
    const error = h('p', { class: 'field-error', id: errId, 'aria-live': 'polite' });
    const labelEl = f.type === 'checkboxes'
      ? h('span', { class: 'label', id: id + '-legend' }, f.label, f.required ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : null)
      : h('label', { for: id }, f.label, f.required ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : null);
    el.append(h('div', { class: ['field', `field-${f.type || 'text'}`, f.wide ? 'wide' : ''] },
      f.type === 'checkbox' ? [input, labelEl] : [labelEl, input],
      f.help ? h('p', { class: 'help', id: helpId }, f.help) : null,
      error));
    // A picker is labelled, focused and marked through its text input.
    controls.set(f.name, { f, input, target: input.control || input, error, initial: raw });
  }
  if (spec.extra) el.append(h('div', { class: 'form-extra' }, spec.extra));
  const submit = h('button', { type: 'submit', class: ['button', spec.kind || 'primary'] }, spec.submit || 'Save');
  el.append(h('div', { class: 'actions' }, submit, spec.actions || null));

  function clearErrors() {
    replace(status);
    for (const c of controls.values()) {
      replace(c.error);
      c.target.removeAttribute('aria-invalid');
    }
  }

  /**
   * showError puts message next to the field an API error names, as the
   * field's label and the issue when the error names the field itself;
   * false when no field matches.
   */
  el.showError = (field, message, issue = '') => {
    const exact = controls.has(field);
    const c = controls.get(exact ? field : field.split(/[[.]/)[0]);
    if (!c) return false;
    replace(c.error, exact && issue ? `${c.f.label} ${issue}` : message);
    c.target.setAttribute('aria-invalid', 'true');
    c.target.focus();
    return true;
  };

  /** values is what the form would send now, for a preview; a field that
   * does not convert is left out (submitting names it). */
  el.values = () => {
    const out = {};
    for (const [name, c] of controls) {
      try {
        const v = convert(c.f, read(c.f, c.input));
        if (v !== undefined) out[name] = v;
      } catch { /* reported when the form is submitted */ }
    }
    return out;
  };

  el.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors();
    const body = {};
    let firstBad = null;
    for (const [name, c] of controls) {
      if (c.f.send === false || c.f.disabled) continue;
      const raw = read(c.f, c.input);
      if (spec.patch && same(raw, c.initial)) continue;
      try {
        // Text typed in a picker names nothing until a match is picked.
        if (c.f.type === 'picker' && !c.f.multiple && raw === '' && c.target.value.trim() !== '') {
          throw new Error('needs one of the matches picked from the list');
        }
        const v = convert(c.f, raw);
        if (v !== undefined) body[name] = v;
      } catch (err) {
        replace(c.error, `${c.f.label} ${err.message}.`);
        c.target.setAttribute('aria-invalid', 'true');
        firstBad = firstBad || c.target;
      }
    }
    if (firstBad) {
      firstBad.focus();
      return;
    }
    if (spec.patch && !Object.keys(body).length && !spec.allowEmpty) {
      replace(status, notice('info', 'Nothing changed.'));
      return;
    }
    const question = spec.confirm ? spec.confirm(body) : null;
    if (question && !(await confirm(question.message, question.yes, question.no))) return;
    submit.disabled = true;
    el.setAttribute('aria-busy', 'true');
    try {
      const result = await keys.send((key) => spec.onSubmit(body, { key }));
      for (const c of controls.values()) c.initial = read(c.f, c.input);
      if (spec.done) await spec.done(result, el);
      else replace(status, notice('ok', spec.saved || 'Saved.'));
    } catch (err) {
      if (err instanceof ApiError && err.field && el.showError(err.field, err.message, err.issue)) {
        replace(status, notice('error', 'Please correct the field marked below.'));
      } else {
        replace(status, errorNotice(err));
      }
    } finally {
      submit.disabled = false;
      el.removeAttribute('aria-busy');
    }
  });
  return el;
}

/** inlineForm is a one-line form (filters, small actions). */
export function filters(spec) {
  return form({ ...spec, class: 'filters', kind: '', submit: spec.submit || 'Apply' });
}
