import * as React from 'react';
import type { Auth0ContextInterface } from '@auth0/auth0-react';

/**
 * The login session as the site's components see it: the part of the login SDK's interface they
 * use (a type only: nothing of the SDK is bundled through this file). The auth island hands it
 * down, from the SDK once that has loaded in its own chunk (auth-sdk.tsx), or, for a visitor
 * the SDK could not find a session for, a logged-out session that loads the SDK only for a login
 * or a logout (auth-island.tsx). Components read it here instead of calling the SDK's hook, so
 * no page carries the SDK (~65 KB gzipped) in its first load.
 */
export type Session = Pick<
  Auth0ContextInterface,
  'isLoading' | 'isAuthenticated' | 'user' | 'error' | 'loginWithRedirect' | 'logout' | 'getAccessTokenSilently'
>;

export const SessionContext = React.createContext<Session | null>(null);

/** The session of the auth island around this component (there is always one: see AuthIsland). */
export function useSession(): Session {
  const session = React.useContext(SessionContext);
  if (!session) throw new Error('useSession outside an AuthIsland');
  return session;
}
