import * as React from 'react';
import { mayHaveSession } from '../../app/session';

/**
 * Who is placing the order. The exchange works without an account, so the login SDK is loaded
 * only when it could find a session here (mayHaveSession: then "Send to my wallet",
 * "Use my wallet", the deposit reference and the own-order list use their access token).
 * Anonymous visitors never download it.
 */
export type ExchangeSession = {
  status: 'checking' | 'anonymous' | 'authenticated';
  getToken: () => Promise<string | null>;
  /** Logs the user in again (a fresh login, with the second factor when it is set up), then back to `returnTo`: confirming an order paid from the wallet needs one. */
  stepUp?: (returnTo: string) => Promise<void>;
};

const anonymous: ExchangeSession = { status: 'anonymous', getToken: async () => null };
const SessionContext = React.createContext<ExchangeSession>(anonymous);

export const useExchangeSession = () => React.useContext(SessionContext);

const SessionBridge = React.lazy(() => import('./session-bridge'));

export function ExchangeSessionProvider({ children }: { children: React.ReactNode }) {
  const [session, setSession] = React.useState<ExchangeSession>({ status: 'checking', getToken: async () => null });
  const [withSdk, setWithSdk] = React.useState(false);
  React.useEffect(() => {
    if (mayHaveSession()) setWithSdk(true);
    else setSession(anonymous);
  }, []);
  return (
    <SessionContext.Provider value={session}>
      {children}
      {withSdk ? (
        <div className="session-bridge small muted">
          <React.Suspense fallback={null}>
            <SessionBridge onChange={setSession} />
          </React.Suspense>
        </div>
      ) : null}
    </SessionContext.Provider>
  );
}

/** A provider for tests and stories: a fixed session. */
export function StaticSession({ value, children }: { value: ExchangeSession; children: React.ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
