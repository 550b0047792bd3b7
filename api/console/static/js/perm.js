// Which controls to show: the signed-in admin's role against the permission
// map the server derives from its own route declarations
// (/admin/permissions.json), so the console and the API never disagree.
// Hiding is a courtesy; the server refuses anyway.

let roles = [];
let permissions = {};
let routes = {};
let role = '';

/** loadPermissions stores the server's permission map. */
export function loadPermissions(doc) {
  roles = doc.roles || [];
  permissions = doc.permissions || {};
  routes = doc.routes || {};
}

/** setRole records the signed-in admin's role. */
export function setRole(r) {
  role = r || '';
}

function rank(r) {
  return roles.indexOf(r) + 1;
}

/** can reports whether the admin holds the permission name (e.g. a field's pricing.write). */
export function can(name) {
  const min = permissions[name];
  return Boolean(min) && rank(role) > 0 && rank(role) >= rank(min);
}

/** has reports whether this server has a route: has('GET', '/shipping/zones'); parameters are written {}. */
export function has(method, path) {
  return Object.prototype.hasOwnProperty.call(routes, `${method} ${path}`);
}

/** allowed reports whether the admin may call a route (false when the server lacks it). */
export function allowed(method, path) {
  return has(method, path) && can(routes[`${method} ${path}`]);
}
