import { setChainNetwork } from '#domain/networks';
import { apiOrigin } from '../config';
import type { AuthConfig } from '#domain/contracts/auth';

/** GET /api/auth/config: the login settings, fetched once per page load. */
export type { AuthConfig };

let pending: Promise<AuthConfig> | undefined;

export function getAuthConfig(): Promise<AuthConfig> {
  pending ??= fetch(`${apiOrigin}/api/auth/config`).then((response) => {
    if (!response.ok) throw new Error(`auth config: ${response.status}`);
    return response.json() as Promise<AuthConfig>;
  });
  // One build serves every network: addresses are checked for the server's (CHAIN_NETWORK).
  void pending.then(
    (config) => config.chainNetwork && setChainNetwork(config.chainNetwork),
    () => undefined,
  );
  pending.catch(() => {
    pending = undefined; // let the next attempt try again
  });
  return pending;
}
