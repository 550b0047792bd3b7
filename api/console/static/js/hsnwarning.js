// The warning that active products lack the HSN code their tax invoices
// need: shown while the health report's taxDocuments is hsn_missing, with
// how many products and a link to the products list filtered to them.

import { h } from './dom.js';
import { api, query } from './api.js';
import { allowed } from './perm.js';
import { link } from './ui.js';

/**
 * hsnWarning resolves to the warning, or null when every active product
 * has its code, the role may not read health or products, or the server
 * cannot say (the page it sits on still loads).
 */
export async function hsnWarning() {
  if (!allowed('GET', '/health') || !allowed('GET', '/products')) return null;
  try {
    const health = await api('GET', '/health');
    if (health.services.taxDocuments !== 'hsn_missing') return null;
    const page = await api('GET', '/products' + query({ missingHsn: 'true', limit: 1 }));
    const n = page.pagination.total;
    if (!n) return null;
    // Styled as an error but not an alert: it stands on every visit until
    // fixed, and a screen reader need not be interrupted for it each time.
    return h('div', { class: 'notice error hsn-warning', role: 'status' },
      `${n} active ${n === 1 ? 'product has' : 'products have'} no HSN code: ${n === 1 ? 'its' : 'their'} tax invoices print none, and GSTR-1 reports ${n === 1 ? 'it' : 'them'} without one. `,
      link('/products?missingHsn=true', n === 1 ? 'Show the product' : `Show the ${n} products`));
  } catch {
    return null;
  }
}
