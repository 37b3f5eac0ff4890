import * as React from 'react';
import { displayName, rememberSession, SessionContext, type Session } from './session';

/**
 * Hands an island's session to its components, and — once it is known, unless `remember` is off —
 * remembers it for the pages without an island (session.tsx). The islands (auth-island.tsx,
 * auth-sdk.tsx) are the only writers of the session; it is apart from session.tsx because that
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
  const name = session.status === 'signed-in' ? displayName(session.user) : null;
  React.useEffect(() => {
    if (!remember || session.status === 'unknown') return;
    rememberSession(name === null ? { status: 'anonymous' } : { status: 'signed-in', user: { name } });
  }, [remember, session.status, name]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
