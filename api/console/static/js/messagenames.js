// Names a person reads for the customer messages' events and channels
// (internal/messaging: events.go), shared by the message settings page and
// an order's messages.

import { label } from './format.js';

// The events in the order the settings list them (messaging.Events).
export const EVENTS = ['orderConfirmed', 'shipped', 'outForDelivery', 'delivered', 'ndr', 'paymentLink', 'codConfirmation', 'codOtp'];

const EVENT_NAMES = {
  orderConfirmed: 'Order confirmed',
  shipped: 'Shipped, with tracking',
  outForDelivery: 'Out for delivery',
  delivered: 'Delivered',
  ndr: 'Delivery failed: asking for a decision',
  paymentLink: 'Payment link',
  codConfirmation: 'Cash on delivery: confirmation link',
  codOtp: 'Cash on delivery: checkout code (OTP)',
};

/** eventName names a message event: codConfirmation → "Cash on delivery: confirmation link". */
export function eventName(e) {
  return EVENT_NAMES[e] || label(e);
}

/** channelName names a channel: sms → "SMS". */
export function channelName(c) {
  return { sms: 'SMS', whatsapp: 'WhatsApp' }[c] || label(c);
}

/**
 * phoneName writes a phone as the messages store it (country code and
 * number, digits only) the way it is read: 919840123456 → "+91 98401 23456".
 */
export function phoneName(p) {
  const d = String(p || '').replace(/\D/g, '');
  if (!d) return '—';
  if (d.length === 12 && d.startsWith('91')) return `+91 ${d.slice(2, 7)} ${d.slice(7)}`;
  return '+' + d;
}
