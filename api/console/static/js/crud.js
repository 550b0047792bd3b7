// A list page for a simple resource (categories, collections, discounts,
// customer groups, price lists, bundles, admin users, webhooks): a paged
// table, a "New" dialog, and per row an edit dialog and a delete button,
// each shown only when the admin's role may use the route behind it.

import { h } from './dom.js';
import { api, query as qs } from './api.js';
import { form } from './forms.js';
import { allowed } from './perm.js';
import { setQuery } from './router.js';
import { pageHead, table, pager, button, confirm, errorNotice, openDialog } from './ui.js';
import { session } from './session.js';

/**
 * crudPage renders spec: {title, noun, api (list path, e.g. '/categories'),
 * route (the route key path with {} for the id, e.g. '/categories/{}'),
 * columns, fields(item|null) → form fields (may be async), toBody(values,
 * item) (optional), filters (form fields read from the query), created(res)
 * (optional, after a create), prepare(rows) (optional, before drawing),
 * confirmEdit(changed, item) → a question to ask before saving an edit
 * (optional), query, rerender}.
 */
export async function crudPage(spec) {
  const f = {};
  for (const field of spec.filters || []) f[field.name] = spec.query.get(field.name) || '';
  const page = spec.query.get('page') || '1';
  const res = await api('GET', spec.api + qs({ ...f, page, limit: 20 }));
  // prepare(rows) fetches what the columns name (one request a kind).
  if (spec.prepare) await spec.prepare(res.data);
  const status = h('div', { class: 'form-status' });
  const fieldsFor = async (item) => (await spec.fields(item)).filter(Boolean);
  const body = async (v, item) => (spec.toBody ? spec.toBody(v, item) : v);

  const create = allowed('POST', spec.api) ? button(`New ${spec.noun}`, async () => {
    const close = openDialog(`New ${spec.noun}`, form({
      label: `New ${spec.noun}`,
      values: spec.defaults || {},
      fields: await fieldsFor(null),
      submit: `Create ${spec.noun}`,
      onSubmit: async (v) => api('POST', spec.api, await body(v, null)),
      done: async (r) => {
        close();
        session.flash = `${cap(spec.noun)} created.`;
        if (spec.created) await spec.created(r);
        else spec.rerender();
      },
    }));
  }, { kind: 'primary' }) : null;

  const canEdit = allowed(spec.editMethod || 'PATCH', spec.route);
  const canDelete = allowed('DELETE', spec.route);
  const columns = [...spec.columns];
  if (canEdit || canDelete) {
    columns.push({
      label: 'Actions',
      cell: (item) => h('span', { class: 'row-actions' },
        canEdit ? button('Edit', async () => {
          const close = openDialog(`Edit ${spec.noun}`, form({
            label: `Edit ${spec.noun}`,
            patch: true,
            values: spec.values ? spec.values(item) : item,
            fields: await fieldsFor(item),
            submit: 'Save',
            confirm: spec.confirmEdit ? (v) => spec.confirmEdit(v, item) : undefined,
            onSubmit: async (v) => api(spec.editMethod || 'PATCH', spec.api + '/' + item.id, await body(v, item)),
            done: () => {
              close();
              session.flash = `${cap(spec.noun)} saved.`;
              spec.rerender();
            },
          }));
        }, { kind: 'small', attrs: { 'aria-label': `Edit ${spec.name ? spec.name(item) : spec.noun}` } }) : null,
        canDelete ? button('Delete', async () => {
          if (!(await confirm(`Delete ${spec.name ? spec.name(item) : 'this ' + spec.noun}?`, `Delete ${spec.noun}`, `Keep ${spec.noun}`))) return;
          try {
            await api('DELETE', spec.api + '/' + item.id);
            session.flash = `${cap(spec.noun)} deleted.`;
            spec.rerender();
          } catch (err) {
            status.replaceChildren(errorNotice(err));
          }
        }, { kind: 'small danger', attrs: { 'aria-label': `Delete ${spec.name ? spec.name(item) : spec.noun}` } }) : null),
    });
  }
  return [
    pageHead(spec.title, create),
    spec.intro ? h('p', { class: 'muted' }, spec.intro) : null,
    spec.filters ? form({
      label: `Filter ${spec.title.toLowerCase()}`, class: 'filters', kind: '', values: f, fields: spec.filters, submit: 'Filter',
      onSubmit: async (v) => setQuery(v), done: () => {},
    }) : null,
    status,
    table(columns, res.data, { empty: `No ${spec.title.toLowerCase()} yet.`, caption: spec.title }),
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), spec.title.toLowerCase()),
  ];
}

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
