import * as React from 'react';
import { useSession } from '../../../app/session';
import { apiOrigin } from '../../../config';
import type { Me } from '#domain/contracts/accounts';

/** GET /api/me: the logged-in user's account. */
export type { Me };

export async function getMe(accessToken: string): Promise<Me> {
  const response = await fetch(`${apiOrigin}/api/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  if (!response.ok) throw new Error(`me: ${response.status}`);
  return response.json() as Promise<Me>;
}

export function useMe(): { me?: Me; error?: unknown } {
  const { getAccessTokenSilently } = useSession();
  const [state, setState] = React.useState<{ me?: Me; error?: unknown }>({});
  React.useEffect(() => {
    let live = true;
    getAccessTokenSilently()
      .then((token) => getMe(String(token)))
      .then((me) => live && setState({ me }))
      .catch((error: unknown) => live && setState({ error }));
    return () => {
      live = false;
    };
  }, [getAccessTokenSilently]);
  return state;
}
