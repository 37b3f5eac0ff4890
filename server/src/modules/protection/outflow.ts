import { secondsToWait } from '#domain/errors';
import { findAccountById } from '../accounts/service';
import { protectionRepository, type ProtectionRow } from './repository';
import type { ErrorCode } from '#domain/errors';
import type { Db } from '../../db/client';

// Account protection (the invariants: service.ts): what the outflow gate (modules/gates) asks of protection for every value leaving a wallet.

/**
 * In allow-list mode, the send's address (canonical) must be a live entry of the book whose hold
 * has passed — another Muntly user's address (`internal`) too (issue 34): after a takeover the
 * attacker's own Muntly account is just as much a stranger's wallet as an outside one, and an
 * internal send arrives at once, so it is the faster way to empty an account. `internal` stays in
 * the signature for the entries made before, which may still carry no hold.
 */
export async function bookRefusal(
  db: Db,
  row: ProtectionRow,
  send: { currency: string; address: string; internal: boolean },
  now = new Date(),
): Promise<{ code: ErrorCode; retryAfter?: number } | null> {
  if (!row.allowListOnly) return null;
  const entry = await protectionRepository.liveEntry(db, row.accountId, send.currency, send.address);
  if (!entry) return { code: 'address_not_in_book' };
  if (entry.usableFrom > now)
    return { code: 'address_on_hold', retryAfter: secondsToWait(entry.usableFrom.getTime() - now.getTime()) };
  return null;
}

/**
 * The account's protection row, locked (FOR UPDATE or FOR SHARE) until the transaction ends when
 * asked. An account without one yet gets the defaults of a new account (migration 0026 made one
 * for every account that existed), allow-list mode on since the account was created.
 */
export async function protectionOf(db: Db, accountId: string, lock?: 'update' | 'share'): Promise<ProtectionRow> {
  const row = await protectionRepository.lockedProtection(db, accountId, lock);
  if (row) return row;
  // When the account was created is asked of accounts, whose table it is.
  const account = await findAccountById(db, accountId);
  if (account) await protectionRepository.insertDefaultProtection(db, accountId, account.createdAt);
  return (await protectionRepository.lockedProtection(db, accountId, lock))!;
}
