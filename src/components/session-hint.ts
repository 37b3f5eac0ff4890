/**
 * Who is logged in, remembered in localStorage for the header: the header is on every page and
 * must not load the login SDK (it would grow every page's JavaScript). The SDK, on the pages that
 * load it, writes and clears this hint; it holds no token.
 */
export type SessionHint = { name: string };
const KEY = 'muntly-session';

export function readSessionHint(): SessionHint | null {
  try {
    const value = JSON.parse(window.localStorage.getItem(KEY) ?? 'null') as SessionHint | null;
    return value && typeof value.name === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function writeSessionHint(hint: SessionHint | null): void {
  try {
    if (hint) window.localStorage.setItem(KEY, JSON.stringify(hint));
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage disabled: the header simply shows "Log in".
  }
  window.dispatchEvent(new Event('muntly:session'));
}
