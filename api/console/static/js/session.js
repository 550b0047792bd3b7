// What the console knows about this server and the signed-in admin, shared
// by every page: the settings document and the admin from GET /auth/me
// (null when signed out).

export const session = {
  settings: {},
  me: null,
  // focusMain moves focus to a page's heading after navigation (not on the
  // first load, so a screen reader starts at the top).
  focusMain: false,
  // flash is a message shown once on the next page drawn (after an action
  // that re-renders the page).
  flash: '',
};

/** currency is the store's currency code. */
export function currency() {
  return session.settings.currency || 'INR';
}
