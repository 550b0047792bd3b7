// GST rates that depend on value (docs/DECISIONS.md "GST rates that depend on
// value"): the rules on the tax settings page, each with its HSN prefixes, its
// threshold a piece and its two rates; create and delete only (a change of
// terms is a delete and a create), each shown when the role may use it.

import { h } from '../dom.js';
import { api } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { section, table, button, confirm, errorNotice, openDialog } from '../ui.js';
import { formatMoney, formatRate } from '../money.js';
import { session, currency } from '../session.js';

const PATH = '/tax/value-rules';

export async function valueRulesSection({ rerender }) {
  const res = await api('GET', PATH);
  const status = h('div', { class: 'form-status' });
  const canDelete = allowed('DELETE', PATH + '/{}');
  const name = (r) => `the rule for HSN ${r.hsnPrefixes.join(', ')}`;
  const columns = [
    { label: 'HSN prefixes', cell: (r) => r.hsnPrefixes.join(', ') },
    { label: 'Up to a piece', class: 'num', cell: (r) => formatMoney(r.threshold, currency()) },
    { label: 'Rate up to', class: 'num', cell: (r) => formatRate(r.rateUpTo) },
    { label: 'Rate above', class: 'num', cell: (r) => formatRate(r.rateAbove) },
  ];
  if (canDelete) {
    columns.push({
      label: 'Actions',
      cell: (r) => button('Delete', async () => {
        if (!(await confirm(`Delete ${name(r)}? Carts priced after it use the products' own rates; orders and documents keep theirs.`,
          'Delete rule', 'Keep rule'))) return;
        try {
          await api('DELETE', PATH + '/' + r.id);
          session.flash = 'Value rule deleted.';
          rerender();
        } catch (err) {
          status.replaceChildren(errorNotice(err));
        }
      }, { kind: 'small danger', attrs: { 'aria-label': `Delete ${name(r)}` } }),
    });
  }
  // One of the server's rates, as the rate changes offer them.
  const rates = [['', 'Choose a rate'], ...(session.settings.gstRates || []).map((r) => [String(r), formatRate(r)])];
  const create = allowed('POST', PATH) ? button('New value rule', () => {
    const close = openDialog('New value rule', form({
      label: 'New value rule',
      fields: [
        { name: 'hsnPrefixes', label: 'HSN prefixes', type: 'list', required: true, wide: true,
          help: '2 to 8 digits each, separated by commas or spaces. A prefix may belong to one rule; the longest matching prefix wins.' },
        { name: 'threshold', label: `Value a piece without GST (${currency()})`, type: 'money', required: true },
        { name: 'rateUpTo', label: 'GST rate up to it', type: 'select', required: true, options: rates },
        { name: 'rateAbove', label: 'GST rate above it', type: 'select', required: true, options: rates },
      ],
      values: { rateUpTo: '5', rateAbove: '18' },
      submit: 'Create rule',
      onSubmit: (v, { key }) => api('POST', PATH, { ...v, rateUpTo: Number(v.rateUpTo), rateAbove: Number(v.rateAbove) },
        { headers: { 'Idempotency-Key': key } }),
      done: () => {
        close();
        session.flash = 'Value rule created.';
        rerender();
      },
    }));
  }, { kind: 'primary' }) : null;
  return section('Rates that depend on value',
    h('p', { class: 'muted' }, 'A unit whose price after its discounts, without GST, is at most the value a piece pays the lower rate, else the higher. Carts priced from now on follow a change; orders and issued documents keep their rates.'),
    status,
    table(columns, res.data, { empty: 'No value rules: every product sells at its own rate.', caption: 'Rates that depend on value' }),
    create ? h('div', { class: 'actions' }, create) : null);
}
