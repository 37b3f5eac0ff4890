import { z } from 'zod';
import { CHAIN_NETWORKS } from '../networks';

/**
 * GET /api/auth/config: the login settings the site's islands read at run time, so that one site
 * build works with the local identity provider on any port and with any Auth0 tenant.
 */
export const authConfigSchema = z.object({
  domain: z.string().describe('Auth0 domain (or the local provider origin, scheme included)'),
  clientId: z.string(),
  audience: z.string(),
  scope: z.string(),
  chainNetwork: z
    .enum(CHAIN_NETWORKS)
    .describe('The chain of the Bitcoin-family addresses (CHAIN_NETWORK): the site checks addresses for it'),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;
