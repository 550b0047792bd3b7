// The audit log, with its filters (super_admin).

import { h } from '../dom.js';
import { api, query as qs, ApiError } from '../api.js';
import { filters } from '../forms.js';
import { setQuery } from '../router.js';
import { pageHead, table, pager, errorNotice } from '../ui.js';
import { fmtTime } from '../format.js';

const KEYS = ['action', 'adminId', 'entityId', 'dateFrom', 'dateTo'];

export async function auditPage({ query }) {
  const f = Object.fromEntries(KEYS.map((k) => [k, query.get(k) || '']));
  const page = query.get('page') || '1';
  const filterForm = filters({
    label: 'Filter the audit log', values: f,
    fields: [
      { name: 'action', label: 'Action', placeholder: 'order.refund or auth.*' },
      { name: 'adminId', label: 'Admin id', type: 'uuid' },
      { name: 'entityId', label: 'Entity id' },
      { name: 'dateFrom', label: 'From (UTC day)', type: 'date' },
      { name: 'dateTo', label: 'To (UTC day)', type: 'date' },
    ],
    submit: 'Filter', onSubmit: async (v) => setQuery(v), done: () => {},
  });
  const head = pageHead('Audit log');
  let res;
  try {
    res = await api('GET', '/audit-logs' + qs({ ...f, page, limit: 50 }));
  } catch (err) {
    if (err instanceof ApiError && err.field && filterForm.showError(err.field, err.message)) return [head, filterForm];
    return [head, filterForm, errorNotice(err)];
  }
  return [
    head,
    filterForm,
    table([
      { label: 'When', cell: (e) => fmtTime(e.createdAt) },
      { label: 'Action', cell: (e) => h('code', {}, e.action) },
      { label: 'Admin', cell: (e) => (e.adminId ? h('a', { href: '?' + new URLSearchParams({ adminId: e.adminId }) }, e.adminId.slice(0, 8)) : '—') },
      { label: 'Entity', cell: (e) => e.entityId || '—' },
      { label: 'From', cell: (e) => h('span', { title: e.userAgent }, e.ipAddress || '—') },
      { label: 'Details', cell: (e) => (Object.keys(e.metadata || {}).length
        ? h('details', {}, h('summary', {}, 'Metadata'), h('pre', { class: 'json' }, JSON.stringify(e.metadata, null, 2))) : '—') },
    ], res.data, { empty: 'No entries match.', caption: 'Audit log' }),
    pager(res.pagination, (n) => setQuery({ ...f, page: n }), 'entries'),
  ];
}
