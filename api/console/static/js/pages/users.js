// Admin users (super_admin): create, change role, deactivate.

import { h } from '../dom.js';
import { crudPage } from '../crud.js';
import { badge } from '../ui.js';
import { fmtTime, label } from '../format.js';
import { session } from '../session.js';

const ROLES = ['viewer', 'staff', 'admin', 'super_admin'].map((r) => [r, label(r)]);

export async function usersPage({ query, rerender }) {
  return crudPage({
    title: 'Admin users', noun: 'admin', api: '/users', route: '/users/{}', query, rerender,
    name: (u) => u.email,
    intro: 'Deactivating an admin ends all of their sessions at once.',
    filters: [
      { name: 'search', label: 'Search', type: 'search' },
      { name: 'role', label: 'Role', type: 'select', options: [['', 'Any role'], ...ROLES] },
    ],
    columns: [
      { label: 'Admin', cell: (u) => h('span', {}, u.name || '—', h('br'), h('span', { class: 'muted' }, u.email)) },
      { label: 'Role', cell: (u) => label(u.role) },
      { label: '2FA', cell: (u) => (u.twoFactorEnabled ? 'On' : 'Off') },
      { label: 'Last sign-in', cell: (u) => fmtTime(u.lastLoginAt) },
      { label: 'State', cell: (u) => badge(u.isActive ? 'active' : 'deactivated') },
    ],
    defaults: { role: 'viewer' },
    // A super_admin who lowers their own role (or deactivates themself)
    // loses this page at once, and may leave the shop without one.
    confirmEdit: (changed, u) => {
      if (!session.me || u.id !== session.me.id) return null;
      if (changed.isActive === false) {
        return { message: 'Deactivate your own account? You are signed out everywhere at once and cannot sign in again.',
          yes: 'Deactivate my account', no: 'Keep my account' };
      }
      if (changed.role && changed.role !== u.role && u.role === 'super_admin') {
        return { message: `Change your own role to ${label(changed.role)}? You lose the super admin pages (admin users, audit log, queues) at once, and only another super admin can give them back.`,
          yes: `Become ${label(changed.role)}`, no: 'Stay super admin' };
      }
      return null;
    },
    fields: (item) => (item
      ? [
        { name: 'name', label: 'Name', maxlength: 200 },
        { name: 'role', label: 'Role', type: 'select', options: ROLES },
        { name: 'isActive', label: 'Active', type: 'checkbox' },
      ]
      : [
        { name: 'email', label: 'Email', type: 'email', required: true },
        { name: 'name', label: 'Name', maxlength: 200 },
        { name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'new-password', help: 'At least 12 characters.' },
        { name: 'role', label: 'Role', type: 'select', options: ROLES },
      ]),
  });
}
