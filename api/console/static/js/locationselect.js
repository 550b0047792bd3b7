// A select of the shop's active locations behind a first choice that sends
// no locationId (the API decides: the fulfil form ships from the highest
// priority location able to ship, a return restocks where the order
// shipped from). The list is asked for when the select is first used, not
// with the page: most forms keep the default, and pages stay within their
// request budget.

import { h, uid } from './dom.js';
import { referenceList } from './api.js';

/** locationSelect builds the field: label, and the default choice's text. */
export function locationSelect(label, automatic) {
  const id = uid('location');
  const select = h('select', { id, name: 'locationId' }, h('option', { value: '' }, automatic));
  let loading = null;
  const load = () => {
    loading = loading || referenceList('/locations').then((ls) => {
      select.append(...ls.filter((l) => l.isActive).sort((a, b) => a.priority - b.priority)
        .map((l) => h('option', { value: l.id }, `${l.name} (${l.code})${l.fulfilsOnline ? '' : ', not online'}`)));
      select.dataset.loaded = 'true';
    }).catch(() => { loading = null; });
    return loading;
  };
  select.addEventListener('focus', load);
  select.addEventListener('pointerdown', (e) => {
    if (select.dataset.loaded) return;
    // Open the list once it holds the locations.
    e.preventDefault();
    select.focus();
    load().then(() => { try { select.showPicker(); } catch { /* not supported: the next click opens it */ } });
  });
  return h('div', { class: 'field' }, h('label', { for: id }, label), select);
}
