import { DomainError } from '#domain/errors';
import { ensureAccount, findAccountByEmail, type AccountRow } from '../accounts/service';
import { reconcile } from '../chain/reconcile';
import { reconcileXrp } from '../chain/xrp-reconcile';
import { chainPayoutsInFlight } from '../payouts/service';
import type { NodeCurrency } from '#domain/chain';
import type { Reconciliation } from '#domain/contracts/chain';
import type { Db } from '../../db/client';
import type { XrpChain } from '../chain/nodes';
import type { CoinNode } from '../chain/rpc';
import type { Xpubs } from '../chain/service';

/**
 * Local mode only: what the operator's API may do with the local OpenID provider. The composition
 * root builds it from dev/ (dev/idp-access.ts); with Auth0 there is none, and the routes that need
 * it answer `not_available_in_production`.
 */
export type LocalIdpAccess = {
  issuer: string;
  findUser(db: Db, email: string): Promise<{ id: string; email: string; name: string } | undefined>;
  /** The user's id (their tokens' subject) and whether they were an admin already; undefined for an unknown email. */
  grantAdmin(db: Db, email: string): Promise<{ id: string; email: string; wasAdmin: boolean } | undefined>;
  /** An access token for this email; the local user is created if needed. `subject`: the user's id. */
  devToken(
    db: Db,
    email: string,
  ): Promise<{ email: string; subject: string; admin: boolean; accessToken: string; expiresIn: number }>;
};

/**
 * The account of an email. Locally, a user of the local provider who has not used the API yet
 * gets their account now, so the operator can prepare it before the first login.
 */
export async function accountByEmail(db: Db, email: string, localIdp?: LocalIdpAccess): Promise<AccountRow> {
  const account = await findAccountByEmail(db, email);
  if (account) return account;
  const idpUser = localIdp ? await localIdp.findUser(db, email) : undefined;
  if (!localIdp || !idpUser) throw new DomainError('unknown_user', 'email');
  return ensureAccount(db, {
    issuer: localIdp.issuer,
    subject: idpUser.id,
    scopes: new Set(),
    expiresAt: 0,
    email: idpUser.email,
    name: idpUser.name,
  });
}

/** Reconciliation of every currency with a node (the ops route, the CLI, the daily run). */
export async function reconcileAll(
  db: Db,
  nodes: Map<NodeCurrency, CoinNode>,
  xpubs: Xpubs,
  xrp: XrpChain | null = null,
): Promise<Reconciliation[]> {
  const results = [];
  for (const node of nodes.values()) results.push(await reconcile(db, node, xpubs, chainPayoutsInFlight));
  if (xrp) results.push(await reconcileXrp(db, xrp.node, xrp.house));
  return results;
}
