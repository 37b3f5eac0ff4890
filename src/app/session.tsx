import * as React from 'react';
import type { Auth0ContextInterface, User } from '@auth0/auth0-react';

/**
 * Who is logged in: the site's one notion of it (issue 37). Everything that asks — the header,
 * the wallet, the faucet, the console, the exchange forms' bridge — reads it here, as one typed
 * state. Only the SDK's adapter (auth-sdk.tsx) calls the SDK's hook; the remembered session in
 * localStorage is read only here and written only by the islands (session-provider.tsx).
 *
 * Where it comes from depends on the page, which is why it is worth one module: inside an auth
 * island (auth-island.tsx) it is the SDK's answer, or the island's logged-out session when the SDK
 * could not find one (mayHaveSession); elsewhere (the header, on every page) it is what the last
 * island remembered in localStorage, so that no page loads the SDK (~65 KB gzipped) to show a
 * name. Only types come from the SDK here: nothing of it is bundled through this file.
 */
export type SessionUser = Pick<User, 'sub' | 'name' | 'email'>;

/**
 * `unknown` until it is known (the server's HTML and the first render, the SDK still deciding);
 * `anonymous` with the SDK's `error` when a login could not be finished.
 */
export type SessionState =
  { status: 'unknown' } | { status: 'anonymous'; error?: Error } | { status: 'signed-in'; user: SessionUser };

/** What an island's components may ask of the session: a login, a logout, an access token. */
export type SessionActions = Pick<Auth0ContextInterface, 'loginWithRedirect' | 'logout' | 'getAccessTokenSilently'>;

export type Session = SessionState & SessionActions;

/**
 * The name the site shows for a user: the provider's name, else the email address. (`||`, not
 * `??`: the site's Babel writes `??` out long, and this is in every page's first load.)
 */
export const displayName = (user: SessionUser): string => user.name || user.email || '';

/** The remembered session: the name of who is logged in, or nothing. It holds no token. */
export const REMEMBERED = { key: 'muntly-session', changed: 'muntly:session' } as const;

function remembered(): SessionState {
  let name: unknown;
  try {
    name = (JSON.parse(window.localStorage.getItem(REMEMBERED.key) || '{}') as { name?: unknown }).name;
  } catch {
    // Storage refused, or not an object: nobody remembered.
  }
  return typeof name === 'string' ? { status: 'signed-in', user: { name } } : { status: 'anonymous' };
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

/** The session an island hands down (session-provider.tsx); null outside an island. */
export const SessionContext = React.createContext<Session | null>(null);

/** The session with its actions, inside an auth island (there is always one: see AuthIsland). */
export function useSession(): Session {
  const session = React.useContext(SessionContext);
  if (!session) throw new Error('useSession outside an AuthIsland');
  return session;
}

/**
 * Who is logged in, anywhere: the island's session inside one, else the remembered one — and
 * `unknown` until hydration, since the server's HTML knows nobody.
 */
export function useSessionState(): SessionState {
  const island = React.useContext(SessionContext);
  const [stored, setStored] = React.useState<SessionState>({ status: 'unknown' });
  // Followed inside an island too (cheap), where the island's own state is shown instead.
  React.useEffect(() => {
    const update = () => setStored(remembered());
    update();
    window.addEventListener(REMEMBERED.changed, update);
    window.addEventListener('storage', update);
    return () => {
      window.removeEventListener(REMEMBERED.changed, update);
      window.removeEventListener('storage', update);
    };
  }, []);
  return island || stored;
}
