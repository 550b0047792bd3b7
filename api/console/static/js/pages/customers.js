// Customers: search, and a customer's details, orders, group and account state.

import { h } from '../dom.js';
import { api, query as qs, referenceList } from '../api.js';
import { form, filters } from '../forms.js';
import { allowed, can } from '../perm.js';
import { setQuery } from '../router.js';
import { pageHead, section, table, link, pager, badge, facts, button, confirm, errorNotice } from '../ui.js';
import { formatMoney } from '../money.js';
import { fmtTime } from '../format.js';
import { session } from '../session.js';

export async function customersPage({ query }) {
  const search = query.get('search') || '';
  const page = query.get('page') || '1';
  const res = await api('GET', '/customers' + qs({ search, page, limit: 20 }));
  return [
    pageHead('Customers'),
    filters({
      label: 'Find customers', values: { search },
      fields: [{ name: 'search', label: 'Search', type: 'search', help: 'Name, email or phone.' }],
      submit: 'Search', onSubmit: async (v) => setQuery(v), done: () => {},
    }),
    table([
      { label: 'Customer', cell: (c) => link('/customers/' + c.id, c.name || c.email) },
      { label: 'Email', cell: (c) => c.email },
      { label: 'Phone', cell: (c) => c.phone || '—' },
      { label: 'Account', cell: (c) => h('span', {}, badge(c.isActive ? 'active' : 'deactivated'), c.isGuest ? [' ', badge('guest')] : null) },
      { label: 'Since', cell: (c) => fmtTime(c.createdAt) },
    ], res.data, { empty: 'No customers match.', caption: 'Customers' }),
    pager(res.pagination, (n) => setQuery({ search, page: n }), 'customers'),
  ];
}

export async function customerPage({ params, query, rerender }) {
  const id = encodeURIComponent(params.id);
  const page = query.get('page') || '1';
  const [c, orders] = await Promise.all([
    api('GET', '/customers/' + id),
    api('GET', '/orders' + qs({ customerId: params.id, page, limit: 10 })),
  ]);
  const status = h('div', { class: 'form-status' });
  const canEdit = allowed('PATCH', '/customers/{}');
  let groups = [];
  if (canEdit && can('pricing.write')) groups = await referenceList('/customer-groups');
  const toggle = canEdit ? button(c.isActive ? 'Deactivate' : 'Reactivate', async () => {
    if (c.isActive && !(await confirm(`Deactivate ${c.email}? They can no longer sign in or check out.`, 'Deactivate customer', 'Keep active'))) return;
    try {
      await api('PATCH', '/customers/' + id, { isActive: !c.isActive });
      session.flash = c.isActive ? 'Customer deactivated.' : 'Customer reactivated.';
      rerender();
    } catch (err) { status.replaceChildren(errorNotice(err)); }
  }, { kind: c.isActive ? 'danger' : 'primary' }) : null;
  return [
    pageHead(c.name || c.email, badge(c.isActive ? 'active' : 'deactivated'), toggle),
    status,
    h('div', { class: 'columns' },
      section('Customer', facts([
        ['Email', c.email], ['Phone', c.phone || '—'], ['Guest', c.isGuest ? 'Yes' : 'No'],
        ['Email verified', c.emailVerified ? 'Yes' : 'No'], ['Orders', String(c.orderCount)],
        ['Spent', formatMoney(c.totalSpent, c.currency)], ['Since', fmtTime(c.createdAt)],
      ])),
      canEdit ? section('Edit', form({
        label: 'Edit customer', patch: true, values: { ...c, customerGroupId: c.customerGroupId || '' },
        fields: [
          { name: 'name', label: 'Name', required: true, maxlength: 255 },
          { name: 'phone', label: 'Phone', type: 'tel', maxlength: 20 },
          can('pricing.write') ? { name: 'customerGroupId', label: 'Customer group', type: 'select', nullable: true,
            options: [['', 'None'], ...groups.map((g) => [g.id, g.name])] } : null,
        ],
        onSubmit: (v) => api('PATCH', '/customers/' + id, v),
        done: () => { session.flash = 'Customer saved.'; rerender(); },
      })) : null),
    section('Orders', table([
      { label: 'Order', cell: (o) => link('/orders/' + o.id, o.orderNumber) },
      { label: 'Placed', cell: (o) => fmtTime(o.createdAt) },
      { label: 'Total', class: 'num', cell: (o) => formatMoney(o.total, o.currency) },
      { label: 'Payment', cell: (o) => badge(o.paymentStatus) },
      { label: 'Status', cell: (o) => badge(o.status) },
    ], orders.data, { empty: 'No orders yet.' }), pager(orders.pagination, (n) => setQuery({ page: n }), 'orders')),
  ];
}
