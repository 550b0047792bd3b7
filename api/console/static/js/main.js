// The console's entry: loads the server's permission map and settings,
// checks the session, draws the shell (navigation, account, sign-out) and
// renders the page of the current URL. Pages are ES modules loaded on first
// use.

import { h, replace } from './dom.js';
import { api, ApiError, setSignedOutHandler } from './api.js';
import { loadPermissions, setRole, allowed, has } from './perm.js';
import { route, start, match, navigate, href } from './router.js';
import { errorNotice, loading, notice, pageHead, button } from './ui.js';
import { label, setStoreZone } from './format.js';
import { session } from './session.js';

const root = document.getElementById('app');

// Pages: path, module, export, and the API route whose permission shows it.
const PAGES = [
  ['/', 'dashboard', 'dashboardPage', 'GET /analytics/orders'],
  ['/orders', 'orders', 'ordersPage', 'GET /orders'],
  ['/orders/:id', 'order', 'orderPage', 'GET /orders/{}'],
  ['/draft-orders', 'drafts', 'draftsPage', 'GET /draft-orders'],
  ['/draft-orders/new', 'draft', 'newDraftPage', 'POST /draft-orders'],
  ['/draft-orders/:id', 'draft', 'draftPage', 'GET /draft-orders/{}'],
  ['/returns', 'returns', 'returnsPage', 'GET /returns'],
  ['/returns/:id', 'returns', 'returnPage', 'GET /returns/{}'],
  ['/ndr', 'ndr', 'ndrPage', 'GET /ndr'],
  ['/shipments', 'shipments', 'shipmentsPage', 'GET /shipments'],
  ['/courier', 'courier', 'courierSettingsPage', 'GET /settings/courier'],
  ['/products', 'products', 'productsPage', 'GET /products'],
  ['/products/new', 'products', 'newProductPage', 'POST /products'],
  ['/products/:id', 'product', 'productPage', 'GET /products/{}'],
  ['/rate-changes', 'ratechanges', 'rateChangesPage', 'GET /tax/rate-changes'],
  ['/categories', 'catalog', 'categoriesPage', 'GET /categories'],
  ['/collections', 'catalog', 'collectionsPage', 'GET /collections'],
  ['/collections/:id', 'catalog', 'collectionPage', 'GET /collections/{}'],
  ['/bundles', 'bundles', 'bundlesPage', 'GET /bundles'],
  ['/bundles/:id', 'bundles', 'bundlePage', 'GET /bundles/{}'],
  ['/discounts', 'discounts', 'discountsPage', 'GET /discounts'],
  ['/price-lists', 'pricelists', 'priceListsPage', 'GET /price-lists'],
  ['/customer-groups', 'catalog', 'customerGroupsPage', 'GET /customer-groups'],
  ['/shipping', 'shipping', 'shippingPage', 'GET /shipping/zones'],
  ['/inventory', 'inventory', 'inventoryPage', 'GET /inventory/overview'],
  ['/locations', 'locations', 'locationsPage', 'GET /locations'],
  ['/transfers', 'transfers', 'transfersPage', 'GET /inventory/transfers'],
  ['/customers', 'customers', 'customersPage', 'GET /customers'],
  ['/customers/:id', 'customers', 'customerPage', 'GET /customers/{}'],
  ['/reviews', 'reviews', 'reviewsPage', 'GET /reviews'],
  ['/webhooks', 'webhooks', 'webhooksPage', 'GET /webhooks'],
  ['/webhooks/:id', 'webhooks', 'webhookPage', 'GET /webhooks/{}'],
  ['/audit', 'audit', 'auditPage', 'GET /audit-logs'],
  ['/users', 'users', 'usersPage', 'GET /users'],
  ['/system', 'system', 'systemPage', 'GET /health'],
  ['/account', 'account', 'accountPage', 'GET /auth/me'],
  ['/tax', 'tax', 'taxSettingsPage', 'GET /settings/tax'],
  ['/gstr1', 'tax', 'gstr1Page', 'GET /reports/gstr1'],
  ['/payments', 'payments', 'paymentSettingsPage', 'GET /settings/payments'],
  ['/message-settings', 'messages', 'messageSettingsPage', 'GET /settings/messages'],
  ['/cod-remittance', 'payments', 'codRemittancePage', 'POST /payments/cod-remittance'],
];

// Navigation groups: label, path, the API route that must be allowed.
const NAV = [
  ['Sales', [['Dashboard', '/', 'GET /analytics/orders'], ['Orders', '/orders', 'GET /orders'],
    ['Draft orders', '/draft-orders', 'GET /draft-orders'], ['Returns', '/returns', 'GET /returns'],
    ['Shipments', '/shipments', 'GET /shipments'], ['Failed deliveries', '/ndr', 'GET /ndr'],
    ['COD remittance', '/cod-remittance', 'POST /payments/cod-remittance']]],
  ['Catalog', [['Products', '/products', 'GET /products'], ['GST rate changes', '/rate-changes', 'GET /tax/rate-changes'],
    ['Categories', '/categories', 'GET /categories'],
    ['Collections', '/collections', 'GET /collections'], ['Bundles', '/bundles', 'GET /bundles'],
    ['Discounts', '/discounts', 'GET /discounts'], ['Price lists', '/price-lists', 'GET /price-lists'],
    ['Customer groups', '/customer-groups', 'GET /customer-groups'], ['Inventory', '/inventory', 'GET /inventory/overview'],
    ['Locations', '/locations', 'GET /locations'], ['Transfers', '/transfers', 'GET /inventory/transfers'],
    ['Shipping', '/shipping', 'GET /shipping/zones']]],
  ['Customers', [['Customers', '/customers', 'GET /customers'], ['Reviews', '/reviews', 'GET /reviews']]],
  ['Settings', [['Webhooks', '/webhooks', 'GET /webhooks'], ['Admin users', '/users', 'GET /users'],
    ['Audit log', '/audit', 'GET /audit-logs'], ['System', '/system', 'GET /health'],
    ['Tax settings', '/tax', 'GET /settings/tax'], ['GSTR-1', '/gstr1', 'GET /reports/gstr1'],
    ['Payment settings', '/payments', 'GET /settings/payments'], ['Courier settings', '/courier', 'GET /settings/courier'],
    ['Customer messages', '/message-settings', 'GET /settings/messages']]],
];

function permitted(key) {
  const [method, path] = key.split(' ');
  return allowed(method, path);
}

async function fetchDoc(path) {
  const res = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

let shell = null;

function buildShell() {
  const main = h('main', { id: 'main', tabindex: '-1' });
  const nav = h('nav', { id: 'nav', class: 'nav', 'aria-label': 'Console' });
  const menu = h('button', { type: 'button', class: 'menu-toggle', 'aria-expanded': 'false', 'aria-controls': 'nav' }, 'Menu');
  menu.addEventListener('click', () => {
    const open = menu.getAttribute('aria-expanded') !== 'true';
    menu.setAttribute('aria-expanded', String(open));
    nav.classList.toggle('open', open);
  });
  const who = h('div', { class: 'who' });
  const header = h('header', { class: 'topbar' },
    menu, h('a', { class: 'brand', href: href('/') }, session.settings.appName || 'Shop', ' admin'), who);
  shell = { main, nav, menu, who, el: h('div', { class: 'shell' }, header, h('div', { class: 'body' }, nav, main)) };
  replace(root, shell.el);
}

// drawNav fills the navigation and the account corner for the signed-in
// admin; it runs once per shell, so their controls stay put while pages
// change (a click on Sign out during a page load lands on it).
function drawNav() {
  const me = session.me;
  replace(shell.who,
    h('a', { href: href('/account'), class: 'me' }, me.name || me.email, h('span', { class: 'role' }, label(me.role))),
    h('button', { type: 'button', class: 'button small', onclick: signOut }, 'Sign out'));
  const groups = NAV.map(([title, items]) => {
    const visible = items.filter(([, , key]) => permitted(key));
    if (!visible.length) return null;
    return h('div', { class: 'nav-group' }, h('h2', {}, title), h('ul', {}, visible.map(([text, p]) =>
      h('li', {}, h('a', { href: href(p), dataset: { path: p } }, text)))));
  });
  if (permitted('GET /queues/*')) {
    groups.push(h('div', { class: 'nav-group' }, h('ul', {},
      h('li', {}, h('a', { href: session.settings.queueDashboard, 'data-external': '', target: '_blank', rel: 'noopener' }, 'Queue dashboard ↗')))));
  }
  replace(shell.nav, groups);
}

// markCurrent points the navigation at the page of path and folds the menu.
function markCurrent(path) {
  for (const a of shell.nav.querySelectorAll('a[data-path]')) {
    const p = a.dataset.path;
    const current = p === '/' ? path === '/' : path === p || path.startsWith(p + '/');
    if (current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  shell.menu.setAttribute('aria-expanded', 'false');
  shell.nav.classList.remove('open');
}

// The signed-in admin is remembered for the tab (name, email, role: what
// the menu needs), so that a console over its request limit still draws
// its menu while it waits.
const ME_KEY = 'shop-admin-me';

function remember(me) {
  try {
    if (me) sessionStorage.setItem(ME_KEY, JSON.stringify(me));
    else sessionStorage.removeItem(ME_KEY);
  } catch {
    // Storage refused (private mode): the menu waits for the server.
  }
}

function remembered() {
  try {
    return JSON.parse(sessionStorage.getItem(ME_KEY) || 'null');
  } catch {
    return null;
  }
}

/**
 * waitOut is the page shown while the server refuses with 429: what
 * happened and a countdown from Retry-After, after which the page loads
 * again by itself (or at once with "Try now"), with the menu still there.
 */
function waitOut(err, token) {
  let left = Math.max(1, err.retryAfter || 5);
  const count = h('strong', { class: 'countdown' }, String(left));
  const timer = setInterval(() => {
    if (token !== renderCount) {
      clearInterval(timer);
      return;
    }
    left -= 1;
    count.textContent = String(Math.max(left, 0));
    if (left <= 0) {
      clearInterval(timer);
      render();
    }
  }, 1000);
  return [pageHead('Too many requests'),
    notice('info', 'This console asked the server more often than your limit allows this minute. The page loads again in ', count,
      ' s.', h('span', { class: 'visually-hidden' }, ' Nothing you did was lost.')),
    h('p', {}, button('Try now', () => { clearInterval(timer); render(); }))];
}

function limited(err) {
  return err instanceof ApiError && err.status === 429;
}

async function signOut() {
  try {
    await api('DELETE', '/auth/logout');
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) {
      replace(shell.main, errorNotice(err));
      return;
    }
  }
  session.me = null;
  remember(null);
  shell = null;
  navigate('/signin', { replace: true });
}

let renderCount = 0;

async function render() {
  const token = ++renderCount;
  const m = match();
  if (m.path === '/signin') {
    shell = null;
    const { signinPage } = await import('./pages/signin.js');
    if (token !== renderCount) return;
    replace(root, await signinPage({ query: m.query }));
    document.title = `Sign in · ${session.settings.appName || 'Shop'} admin`;
    root.querySelector('h1')?.focus();
    return;
  }
  let waiting = null;
  if (!session.me) {
    try {
      session.me = await api('GET', '/auth/me');
      remember(session.me);
      setRole(session.me.role);
      setStoreZone(session.me.storeTimezone);
    } catch (err) {
      if (token !== renderCount) return;
      if (err instanceof ApiError && err.status === 401) {
        remember(null);
        navigate('/signin?next=' + encodeURIComponent(location.pathname + location.search), { replace: true });
        return;
      }
      if (!(limited(err) && remembered())) {
        replace(root, h('main', { class: 'centered' }, limited(err) ? waitOut(err, token) : errorNotice(err)));
        return;
      }
      // Over the limit: the menu from the remembered admin, and the wait.
      session.me = remembered();
      setRole(session.me.role);
      setStoreZone(session.me.storeTimezone);
      waiting = err;
    }
  }
  if (!shell || shell.me !== session.me) {
    buildShell();
    drawNav();
    shell.me = session.me;
  }
  markCurrent(m.path);
  replace(shell.main, loading());
  let node;
  if (waiting) {
    node = waitOut(waiting, token);
  } else if (!m.route) {
    node = [pageHead('Page not found'), notice('error', 'There is no console page at this address.')];
  } else if (m.route.permission && !permitted(m.route.permission)) {
    const [method, path] = m.route.permission.split(' ');
    node = [pageHead('Not available'), notice('info', has(method, path)
      ? 'Your role does not allow this page.'
      : 'This server does not offer this feature yet.')];
  } else {
    try {
      const mod = await m.route.load();
      node = await mod[m.route.exportName]({ params: m.params, query: m.query, rerender: render });
    } catch (err) {
      node = limited(err) ? waitOut(err, token) : [pageHead('Something went wrong'), errorNotice(err)];
    }
  }
  if (token !== renderCount) return;
  replace(shell.main, node);
  if (session.flash) {
    shell.main.querySelector('.page-head')?.after(notice('ok', session.flash));
    session.flash = '';
  }
  const h1 = shell.main.querySelector('h1');
  document.title = `${h1 ? h1.textContent : 'Console'} · ${session.settings.appName || 'Shop'} admin`;
  if (session.focusMain) (h1 || shell.main).focus({ preventScroll: false });
  session.focusMain = true;
  window.scrollTo(0, 0);
}

async function boot() {
  try {
    const [perms, settings] = await Promise.all([fetchDoc('/admin/permissions.json'), fetchDoc('/admin/settings.json')]);
    loadPermissions(perms);
    session.settings = settings;
  } catch (err) {
    replace(root, h('main', { class: 'centered' }, notice('error', 'The console could not load its settings: ', String(err.message))));
    return;
  }
  for (const [path, module, exportName, permission] of PAGES) {
    route(path, { load: () => import(`./pages/${module}.js`), exportName, permission });
  }
  setSignedOutHandler(() => {
    if (!session.me) return;
    session.me = null;
    remember(null);
    shell = null;
    navigate('/signin?expired=1&next=' + encodeURIComponent(location.pathname + location.search), { replace: true });
  });
  start(render);
}

boot();
