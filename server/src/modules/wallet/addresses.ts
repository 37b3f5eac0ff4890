import { currencyByCode } from '#domain/currencies';
import { DomainError, unknownCurrency } from '#domain/errors';
import { UNUSED_ADDRESSES_PER_CURRENCY } from '#domain/limits';
import { incomingAt, nextHouseAddress, type DERIVED_CURRENCIES, type Xpubs } from '../chain/service';
import { requireVerifications } from '../identity/service';
import { addressesWithDeposits } from '../ledger/service';
import { walletRepository, type ReceptionAddress } from './repository';
import type { WalletAddress } from '#domain/contracts/wallet';
import type { Db } from '../../db/client';

/**
 * Reception addresses with labels. Invariants: an address belongs to one user (unique address and
 * unique derivation index per currency, decided by the database when two requests race); only the
 * owner sees or changes it (another user's id is a 404, never a 403).
 */
export type { ReceptionAddress };
/**
 * The owner's addresses in a currency that nothing has arrived at yet: no internal send (the
 * wallet's sends) and no chain deposit (the ledger's deposit transfers name the address).
 */
async function countUnusedAddresses(db: Db, ownerId: string, currency: string): Promise<number> {
  const notSentTo = await walletRepository.addressesNotSentTo(db, ownerId, currency);
  const deposited = await addressesWithDeposits(db, currency, notSentTo);
  return notSentTo.filter((address) => !deposited.has(address)).length;
}

/** An address as the API shows it (domain/contracts/wallet.ts). */
const view = (row: ReceptionAddress): WalletAddress => ({
  id: row.id,
  currency: row.currency,
  address: row.address,
  label: row.label,
});

export async function createAddress(
  db: Db,
  xpubs: Xpubs,
  input: { ownerId: string; currency: string; label?: string },
) {
  const currency = currencyByCode(input.currency);
  if (!currency) throw unknownCurrency('currency');
  if (currency.support === 'partial') throw new DomainError('currency_partially_supported', 'currency');
  await requireVerifications(db, input.ownerId, { usesWallet: true });
  const code = currency.code as (typeof DERIVED_CURRENCIES)[number];
  const row = await db.transaction(async (tx) => {
    // One creation per user and currency at a time (a lock), so that requests at once cannot each
    // find room under the cap: unused addresses are derived for nothing and, beyond the wallet's
    // gap limit, hide later deposits from a standard wallet that imports the house key.
    await walletRepository.lockAddressCreation(tx, input.ownerId, code);
    if ((await countUnusedAddresses(tx, input.ownerId, code)) >= UNUSED_ADDRESSES_PER_CURRENCY) {
      throw new DomainError('too_many_unused_addresses', 'currency');
    }
    const { index, address } = await nextHouseAddress(tx, xpubs, code, 'users');
    return walletRepository.insertAddress(tx, {
      ownerId: input.ownerId,
      currency: code,
      derivationIndex: index,
      address,
      label: input.label ?? null,
    });
  });
  return view(row);
}

/**
 * The owner's addresses; with a real node for a currency, each with the deposits confirming on it
 * ("confirming n of N", chain/watcher.ts), which the page follows until they are credited.
 */
export async function listAddresses(
  db: Db,
  ownerId: string,
  confirmations: (currency: string) => number | null = () => null,
): Promise<WalletAddress[]> {
  const rows = await walletRepository.addressesOf(db, ownerId);
  const views: WalletAddress[] = rows.map(view);
  for (const currency of new Set(rows.map((row) => row.currency))) {
    const required = confirmations(currency);
    if (required === null) continue;
    const mine = views.filter((v) => v.currency === currency);
    const incoming = await incomingAt(
      db,
      currency,
      mine.map((v) => v.address),
      required,
    );
    for (const v of mine) v.incoming = incoming.get(v.address) ?? [];
  }
  return views;
}

export async function relabelAddress(db: Db, input: { ownerId: string; id: string; label: string | null }) {
  if (!/^[0-9a-f-]{36}$/i.test(input.id)) throw new DomainError('not_found');
  const row = await walletRepository.relabelAddress(db, input.ownerId, input.id, input.label);
  if (!row) throw new DomainError('not_found');
  return view(row);
}

export async function findByAddress(db: Db, currency: string, address: string): Promise<ReceptionAddress | undefined> {
  return walletRepository.findAddress(db, currency, address);
}

/** The owner's reception address among these canonical spellings of one address, if one is theirs (the faucet's entries). */
export function ownReceptionAddress(
  db: Db,
  ownerId: string,
  addresses: string[],
): Promise<ReceptionAddress | undefined> {
  return walletRepository.ownAddress(db, ownerId, addresses);
}

/** Every user's reception address, by currency (the reserves list them with the proof of liabilities). */
export function allReceptionAddresses(db: Db): Promise<{ currency: string; address: string }[]> {
  return walletRepository.allAddresses(db);
}
