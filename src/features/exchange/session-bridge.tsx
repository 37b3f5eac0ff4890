import * as React from 'react';
import { AuthIsland } from '../../app/auth-island';
import { useSession } from '../../app/session';
import type { ExchangeSession } from './session';

/**
 * Loaded on demand by ExchangeSessionProvider: the login SDK (the shared auth island) and a
 * reporter that hands the session to the exchange forms.
 */
function Reporter({ onChange }: { onChange: (session: ExchangeSession) => void }) {
  const { isLoading, isAuthenticated, error, getAccessTokenSilently, loginWithRedirect } = useSession();
  React.useEffect(() => {
    if (isLoading) return;
    onChange(
      isAuthenticated && !error
        ? {
            status: 'authenticated',
            getToken: async () => String(await getAccessTokenSilently()),
            stepUp: (returnTo) => loginWithRedirect({ authorizationParams: { max_age: 0 }, appState: { returnTo } }),
          }
        : { status: 'anonymous', getToken: async () => null },
    );
  }, [isLoading, isAuthenticated, error, getAccessTokenSilently, loginWithRedirect, onChange]);
  return null;
}

export default function SessionBridge({ onChange }: { onChange: (session: ExchangeSession) => void }) {
  return (
    <AuthIsland>
      <Reporter onChange={onChange} />
    </AuthIsland>
  );
}
