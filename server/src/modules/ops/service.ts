import { DomainError } from '../../../../domain/errors';
import { ensureAccount, findAccountByEmail, type AccountRow } from '../accounts/service';
import type { Db } from '../../db/client';

/**
 * Local mode only: what the operator's API may do with the local OpenID provider. The composition
 * root builds it from dev/ (dev/idp-access.ts); with Auth0 there is none, and the routes that need
 * it answer `not_available_in_production`.
 */
export type LocalIdpAccess = {
  issuer: string;
  findUser(db: Db, email: string): Promise<{ id: string; email: string; name: string } | undefined>;
  grantAdmin(db: Db, email: string): Promise<{ email: string } | undefined>;
  /** An access token for this email; the local user is created if needed. */
  devToken(db: Db, email: string): Promise<{ email: string; accessToken: string; expiresIn: number }>;
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
  return ensureAccount(db, { issuer: localIdp.issuer, subject: idpUser.id, scopes: new Set(), expiresAt: 0, email: idpUser.email, name: idpUser.name });
}

/** Who did it, for the audit log (defined with the tokens, so that modules below ops record operators the same way). */
export { actorOf } from '../../plugins/auth';
