import * as React from 'react';
import type { Auth0ContextInterface } from '@auth0/auth0-react';

/**
 * The login session as the site's components see it. It is the login SDK's own interface (a
 * type only: nothing of the SDK is bundled through this file), handed down by the auth island
 * once the SDK has loaded in its own chunk (auth-sdk.tsx). Components read it here instead of
 * calling the SDK's hook, so no page carries the SDK (~65 KB gzipped) in its first load: the
 * page renders and hydrates first, and the SDK follows.
 */
export type Session = Auth0ContextInterface;

export const SessionContext = React.createContext<Session | null>(null);

/** The session of the auth island around this component (there is always one: see AuthIsland). */
export function useSession(): Session {
  const session = React.useContext(SessionContext);
  if (!session) throw new Error('useSession outside an AuthIsland');
  return session;
}
