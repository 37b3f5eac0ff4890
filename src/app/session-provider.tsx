import * as React from 'react';
import { displayName, REMEMBERED, SessionContext, type Session, type SessionState } from './session';

/**
 * Hands an island's session to its components, and — once it is known, unless `remember` is off —
 * remembers it for the pages without an island (session.tsx). The islands (auth-island.tsx,
 * auth-sdk.tsx) are the only writers of the session; this is apart from session.tsx because that
 * module is in every page's first load through the header, and this part only in the islands'.
 */
export function SessionProvider({
  session,
  remember,
  children,
}: {
  session: Session;
  remember: boolean;
  children: React.ReactNode;
}) {
  // Written again whenever the island's session changes (a new token, say): the same name, no harm.
  React.useEffect(() => {
    if (remember && session.status !== 'unknown') rememberSession(session);
  }, [remember, session]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/**
 * Remembers `state` for the pages without an island (session.tsx reads it): SessionProvider as an
 * island learns it, and the logout page before it leaves for the provider.
 */
export function rememberSession(state: SessionState): void {
  try {
    if (state.status === 'signed-in')
      window.localStorage.setItem(REMEMBERED.key, JSON.stringify({ name: displayName(state.user) }));
    else window.localStorage.removeItem(REMEMBERED.key);
  } catch {
    // Storage disabled: outside an island the site simply shows "Log in".
  }
  window.dispatchEvent(new Event(REMEMBERED.changed));
}
