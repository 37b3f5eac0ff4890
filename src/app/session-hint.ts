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

/**
 * Whether the login SDK could find a session on this page: its cookie saying someone logged in
 * on this browser (auth0-spa-js writes `auth0.<client id>.is.authenticated` and a `_legacy_`
 * copy; versions before 2 wrote `auth0.is.authenticated`), or a login's answer in the address
 * (`?code=…&state=…`, or `?error=…&state=…`). Without either, the SDK ends logged out without
 * asking the provider (its checkSession returns at once, and its token cache lives in memory),
 * so a page can say "logged out" without downloading and running it.
 */
export function mayHaveSession(cookies = document.cookie, search = window.location.search): boolean {
  if (/(?:^|;)\s*(?:_legacy_)?auth0\.(?:[^=;]*\.)?is\.authenticated=/.test(cookies)) return true;
  return /[?&](?:code|error)=[^&]/.test(search) && /[?&]state=[^&]/.test(search);
}
