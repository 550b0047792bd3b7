// System: health of the service and its dependencies, reconcile (followed
// as a job), cache clearing, and the queue dashboard.

import { h } from '../dom.js';
import { api } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, facts, badge, button, errorNotice, jobPanel } from '../ui.js';
import { fmtTime } from '../format.js';
import { session } from '../session.js';

export async function systemPage() {
  const hl = await api('GET', '/health');
  const jobs = h('div', { class: 'jobs' });
  const status = h('div', { class: 'form-status' });
  return [
    pageHead('System', badge(hl.status)),
    section('Health', facts([
      ['Checked', fmtTime(hl.timestamp)],
      ['Database', badge(hl.services.database)],
      ['Redis', badge(hl.services.redis)],
      ['Payment gateway', badge(hl.services.external.gateway)],
      ['Email', badge(hl.services.external.email)],
      ['Uptime', hl.metrics.uptime],
      ['Memory', hl.metrics.memory],
      ['Open connections', String(hl.metrics.activeConnections)],
      hl.metrics.databasePool ? ['Database pool', `${hl.metrics.databasePool.inUse} in use of ${hl.metrics.databasePool.open} open`] : null,
    ])),
    allowed('POST', '/system/database/reconcile') ? section('Reconcile',
      h('p', { class: 'help' }, 'Recounts reserved and committed stock, removes orphaned records, refreshes the analytics rollups and reports what it fixed. It also runs nightly.'),
      status,
      button('Run reconcile now', async () => {
        try {
          const res = await api('POST', '/system/database/reconcile');
          jobs.prepend(jobPanel(res.jobId, 'Reconcile'));
        } catch (err) { status.replaceChildren(errorNotice(err)); }
      }, { kind: 'primary' }),
      jobs) : null,
    allowed('POST', '/system/cache/clear') ? section('Cache', form({
      label: 'Clear cache',
      fields: [
        { name: 'pattern', label: 'Key pattern', placeholder: '* for everything', maxlength: 200, help: 'Only the application cache is touched; never queues, sessions or rate limits.' },
        { name: 'confirm', label: 'Yes, clear the matching cache entries', type: 'checkbox', required: true },
      ],
      submit: 'Clear cache',
      kind: 'danger',
      onSubmit: (v) => api('POST', '/system/cache/clear', v),
      done: (res, el) => { el.querySelector('.form-status').replaceChildren(h('div', { class: 'notice ok', role: 'status' }, `Cleared ${res.cleared} entries.`)); },
    })) : null,
    allowed('GET', '/queues/*') ? section('Queues', h('p', {},
      h('a', { href: session.settings.queueDashboard, target: '_blank', rel: 'noopener', 'data-external': '', class: 'button' }, 'Open the queue dashboard ↗'))) : null,
  ];
}
