import { normalizeAddress, xrpAccountOf } from '#domain/addresses';
import { currencyByCode } from '#domain/currencies';
import { DomainError, unknownCurrency } from '#domain/errors';
import { ADDRESS_BOOK_MAX_ENTRIES } from '#domain/protection';
import { lockKey } from '../../db/raw';
import { phrase as notifyPhrase } from '../notify/service';
import { recordEvent, type ProtectionContext } from './context';
import { mailTime, sendSecurityEmail } from './mail';
import { protectionRepository, type BookEntry } from './repository';
import type { AddressBookEntry } from '#domain/contracts/protection';
import type { Db } from '../../db/client';

// Account protection (the invariants: service.ts): the address book.

function entryView(row: BookEntry, now = new Date()): AddressBookEntry {
  return {
    id: row.id,
    currency: row.currency,
    address: row.address,
    label: row.label,
    ownWallet: row.ownWallet,
    internal: row.internal,
    createdAt: row.createdAt.toISOString(),
    usableFrom: row.usableFrom.toISOString(),
    onHold: row.usableFrom > now,
  };
}

export async function listBook(db: Db, accountId: string): Promise<AddressBookEntry[]> {
  const now = new Date();
  return (await protectionRepository.liveEntries(db, accountId)).map((row) => entryView(row, now));
}

/**
 * Whose Muntly wallet a canonical address is (a reception address), if any: the wallet module's
 * answer, handed in by the composition root (protection does not depend on the wallet, which
 * depends on it).
 */
export type FindReception = (db: Db, currency: string, address: string) => Promise<{ ownerId: string } | undefined>;

export async function addEntry(
  db: Db,
  ctx: ProtectionContext,
  input: {
    account: { id: string; email: string | null };
    houseXrpAddress: string;
    findReception: FindReception;
    currency: string;
    address: string;
    label?: string;
    ownWallet: boolean;
  },
): Promise<AddressBookEntry> {
  const { account } = input;
  const currency = currencyByCode(input.currency.toUpperCase());
  if (!currency) throw unknownCurrency('currency');
  if (currency.support === 'partial') throw new DomainError('currency_partially_supported', 'currency');
  // The one canonical form the sends use: any valid spelling of an address is the same entry.
  const address = normalizeAddress(currency.code, input.address);
  if (!address) throw new DomainError('invalid_address', 'address');
  const recipient = await input.findReception(db, currency.code, address);
  if (recipient?.ownerId === account.id) throw new DomainError('send_to_own_address', 'address');
  if (currency.code === 'XRP' && !recipient && xrpAccountOf(address) === input.houseXrpAddress)
    throw new DomainError('unknown_destination_tag', 'address');
  const internal = recipient !== undefined;
  const now = new Date();
  const entry = await db.transaction(async (tx) => {
    // One addition per account at a time, so that two at once cannot both find room under the cap.
    await lockKey(tx, `address-book:${account.id}`);
    if ((await protectionRepository.countLiveEntries(tx, account.id)) >= ADDRESS_BOOK_MAX_ENTRIES)
      throw new DomainError('address_book_full');
    const row = await protectionRepository.insertEntry(tx, {
      accountId: account.id,
      currency: currency.code,
      address,
      label: input.label ?? null,
      // Another Muntly user's wallet is never the user's own (their own addresses are refused above).
      ownWallet: internal ? false : input.ownWallet,
      internal,
      createdAt: now,
      // The same hold whoever the wallet belongs to (bookRefusal says why).
      usableFrom: new Date(now.getTime() + ctx.settings.holdMs),
    });
    if (!row) throw new DomainError('address_already_in_book', 'address');
    await recordEvent(tx, account.id, 'address_added', ctx.client, {
      currency: row.currency,
      address: row.address,
      ...(row.label ? { label: row.label } : {}),
    });
    await sendSecurityEmail(tx, ctx.links, {
      accountId: account.id,
      email: account.email,
      language: ctx.language,
      key: 'addressAdded',
      cancelEntryId: row.id,
      values: {
        currency: row.currency,
        // No label: the user's own words, but typed by whoever is logged in — after a takeover, a
        // stranger's words under the owner's anti-phishing phrase (issue 34).
        address: row.address,
        holder: notifyPhrase(ctx.language, 'security', row.ownWallet ? 'ownWallet' : 'otherWallet'),
        usableFrom: mailTime(ctx.language, row.usableFrom),
      },
    });
    return row;
  });
  return entryView(entry, now);
}

/** Removes the owner's entry; another user's id is a 404, never a 403. */
export async function removeEntry(
  db: Db,
  ctx: Pick<ProtectionContext, 'client'>,
  input: { accountId: string; id: string },
): Promise<AddressBookEntry> {
  if (!/^[0-9a-f-]{36}$/i.test(input.id)) throw new DomainError('not_found');
  return db.transaction(async (tx) => {
    const row = await protectionRepository.cancelEntry(tx, input.accountId, input.id, new Date());
    if (!row) throw new DomainError('not_found');
    await recordEvent(tx, input.accountId, 'address_removed', ctx.client, {
      currency: row.currency,
      address: row.address,
    });
    return entryView(row);
  });
}
