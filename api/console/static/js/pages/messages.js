// Customer message settings (GET/PUT /settings/messages, docs/DECISIONS.md
// "Customer messages and COD confirmation"): for each event, the channels
// it is sent on and its templates as registered with the providers: an SMS
// template's MSG91 id, DLT content template id and sender id (an SMS
// without its registered DLT template is dropped by the operators), and a
// WhatsApp template's approved name and language. Each event is its own
// form, saved alone (the API keeps the events a PUT does not name), and
// each control is named by the API's field path, so a refusal lands next
// to the field it names.

import { h } from '../dom.js';
import { api } from '../api.js';
import { form } from '../forms.js';
import { allowed } from '../perm.js';
import { pageHead, section, table, notice } from '../ui.js';
import { session } from '../session.js';
import { EVENTS, eventName, channelName } from '../messagenames.js';

export async function messageSettingsPage({ rerender }) {
  const s = await api('GET', '/settings/messages');
  const events = EVENTS.filter((e) => s.events[e]).concat(Object.keys(s.events).filter((e) => !EVENTS.includes(e)));
  const sending = (e) => (s.events[e].channels || []).map(channelName).join(' and ') || 'not sent';
  if (!allowed('PUT', '/settings/messages')) {
    return [pageHead('Customer messages'), section('', table([
      { label: 'Event', cell: (e) => eventName(e) },
      { label: 'Sent by', cell: (e) => sending(e) },
      { label: 'SMS template', cell: (e) => smsName(s.events[e].sms) },
      { label: 'WhatsApp template', cell: (e) => whatsAppName(s.events[e].whatsapp) },
    ], events))];
  }
  return [
    pageHead('Customer messages'),
    h('p', { class: 'muted' }, 'SMS and WhatsApp messages to customers, per event. Nothing is sent on a channel not ticked. ',
      'Templates must be the ones registered: SMS on the DLT platform (with your sender id) and MSG91, WhatsApp approved by Meta.'),
    events.some((e) => (s.events[e].channels || []).length) ? null : notice('info', 'No event sends messages yet.'),
    events.map((e) => h('details', { class: 'card message-event', dataset: { event: e } },
      h('summary', {}, h('strong', {}, eventName(e)), h('span', { class: 'muted' }, ` · ${sending(e)}`)),
      eventForm(e, s.events[e], rerender))),
  ];
}

// eventForm edits one event's channels and templates.
function eventForm(e, es, rerender) {
  const p = `events.${e}.`;
  return form({
    label: eventName(e),
    values: {
      [p + 'channels']: es.channels || [],
      [p + 'sms.templateId']: es.sms.templateId, [p + 'sms.dltTemplateId']: es.sms.dltTemplateId, [p + 'sms.senderId']: es.sms.senderId,
      [p + 'whatsapp.template']: es.whatsapp.template, [p + 'whatsapp.language']: es.whatsapp.language,
    },
    fields: [
      { name: p + 'channels', label: 'Send by', type: 'checkboxes', options: [['sms', 'SMS'], ['whatsapp', 'WhatsApp']],
        help: 'WhatsApp reaches only customers who opted in; the others get the SMS if it is ticked.' },
      { name: p + 'sms.dltTemplateId', label: 'SMS DLT template id', inputmode: 'numeric', maxlength: 19,
        help: 'The 19-digit content template id the DLT platform gave the template.' },
      { name: p + 'sms.senderId', label: 'SMS sender id', maxlength: 6, help: 'The 6-character header the template is registered under.' },
      { name: p + 'sms.templateId', label: 'MSG91 template id', maxlength: 64 },
      { name: p + 'whatsapp.template', label: 'WhatsApp template name', maxlength: 512, help: 'The approved template\'s name (a-z, 0-9 and _).' },
      { name: p + 'whatsapp.language', label: 'WhatsApp template language', maxlength: 6, help: 'As approved: en, hi, en_US…' },
    ],
    submit: 'Save',
    onSubmit: (v, { key }) => api('PUT', '/settings/messages', { events: { [e]: {
      channels: v[p + 'channels'] || [],
      sms: { templateId: v[p + 'sms.templateId'] || '', dltTemplateId: v[p + 'sms.dltTemplateId'] || '', senderId: v[p + 'sms.senderId'] || '' },
      whatsapp: { template: v[p + 'whatsapp.template'] || '', language: v[p + 'whatsapp.language'] || '' },
    } } }, { headers: { 'Idempotency-Key': key } }),
    done: () => { session.flash = `${eventName(e)}: message settings saved.`; rerender(); },
  });
}

function smsName(t) {
  return t && t.dltTemplateId ? `DLT ${t.dltTemplateId} · ${t.senderId}` : '—';
}

function whatsAppName(t) {
  return t && t.template ? `${t.template} (${t.language})` : '—';
}
