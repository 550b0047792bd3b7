// Client-side routes under /admin/ with the History API: the server answers
// index.html for any of them, so every page has a real URL that can be
// bookmarked, reloaded and opened in a new tab. List filters live in the
// query string, so Back returns to the same filtered page.

export const ROOT = '/admin';

const routes = [];
let onChange = () => {};

/** route registers a page: route('/orders/:id', {load, exportName, permission}). */
export function route(pattern, page) {
  const keys = [];
  const source = pattern.replace(/:(\w+)/g, (_, key) => {
    keys.push(key);
    return '([^/]+)';
  });
  routes.push({ pattern, regexp: new RegExp(`^${source}/?$`), keys, ...page });
}

/** href is the URL of a console path: href('/orders') → '/admin/orders'. */
export function href(path) {
  return ROOT + path;
}

/** match finds the route of the current location. */
export function match() {
  let path = location.pathname.slice(ROOT.length) || '/';
  if (!path.startsWith('/')) path = '/' + path;
  for (const r of routes) {
    const m = r.regexp.exec(path);
    if (m) {
      const params = {};
      r.keys.forEach((k, i) => {
        params[k] = decodeURIComponent(m[i + 1]);
      });
      return { route: r, params, query: new URLSearchParams(location.search), path };
    }
  }
  return { route: null, params: {}, query: new URLSearchParams(location.search), path };
}

/** navigate goes to a console path ('/orders?page=2') or a full /admin URL. */
export function navigate(path, { replace = false } = {}) {
  const url = path.startsWith(ROOT + '/') || path === ROOT ? path : href(path);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  onChange();
}

/** setQuery replaces the query string of the current page and renders it again. */
export function setQuery(params, { replace = false } = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, v);
  }
  const s = q.toString();
  navigate(location.pathname + (s ? '?' + s : ''), { replace });
}

/** start renders the current location and follows links and Back/Forward. */
export function start(render) {
  onChange = render;
  window.addEventListener('popstate', render);
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest('a[href]');
    if (!a || a.target || a.hasAttribute('download') || a.dataset.external !== undefined) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || !(url.pathname === ROOT || url.pathname.startsWith(ROOT + '/'))) return;
    e.preventDefault();
    if (url.pathname + url.search !== location.pathname + location.search) navigate(url.pathname + url.search);
  });
  render();
}
