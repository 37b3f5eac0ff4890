import * as React from 'react';
import { AuthIsland } from '../../app/auth-island';
import { useSession } from '../../app/session';
import type { ExchangeSession } from './session';

/**
 * Loaded on demand by ExchangeSessionProvider: the login SDK (the shared auth island) and a
 * reporter that hands the session to the exchange forms.
 */
function Reporter({ onChange }: { onChange: (session: ExchangeSession) => void }) {
  const { status, getAccessTokenSilently, loginWithRedirect } = useSession();
  React.useEffect(() => {
    if (status === 'unknown') return;
    onChange(
      status === 'signed-in'
        ? {
            status: 'authenticated',
            getToken: async () => String(await getAccessTokenSilently()),
            stepUp: (returnTo) => loginWithRedirect({ authorizationParams: { max_age: 0 }, appState: { returnTo } }),
          }
        : { status: 'anonymous', getToken: async () => null },
    );
  }, [status, getAccessTokenSilently, loginWithRedirect, onChange]);
  return null;
}

export default function SessionBridge({ onChange }: { onChange: (session: ExchangeSession) => void }) {
  return (
    <AuthIsland>
      <Reporter onChange={onChange} />
    </AuthIsland>
  );
}
