import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { receptionAddresses } from '../../db/schema';
import { ApiError } from '../../errors';
import { requireVerifications } from '../identity/service';
import { deriveAddress, DERIVED_CURRENCIES, type Xpubs } from '../chain/derive';
import { currencyByCode } from '../../../../domain/currencies';

/**
 * Reception addresses with labels. Invariants: an address belongs to one user (unique address and
 * unique derivation index per currency, decided by the database when two requests race); only the
 * owner sees or changes it (another user's id is a 404, never a 403).
 */
export type ReceptionAddress = typeof receptionAddresses.$inferSelect;
const view = (row: ReceptionAddress) => ({ id: row.id, currency: row.currency, address: row.address, label: row.label });

export async function createAddress(db: Db, xpubs: Xpubs, input: { ownerId: string; currency: string; label?: string }) {
  const currency = currencyByCode(input.currency);
  if (!currency) throw new ApiError(400, 'validation_failed', 'currency', 'Unknown currency.');
  if (currency.support === 'partial') throw new ApiError(409, 'currency_partially_supported', 'currency');
  await requireVerifications(db, input.ownerId, { usesWallet: true });
  const code = currency.code as (typeof DERIVED_CURRENCIES)[number];
  const { index, address } = await nextHouseAddress(db, xpubs, code);
  const [row] = await db
    .insert(receptionAddresses)
    .values({ ownerId: input.ownerId, currency: code, derivationIndex: index, address, label: input.label ?? null })
    .returning();
  return view(row!);
}

/**
 * The next unused address of the house key for a currency. Wallet reception addresses and the
 * receiving addresses of sell/swap orders draw from one counter, so no address serves two
 * purposes. Concurrent requests queue on the counter's row: each gets its own index.
 */
export async function nextHouseAddress(db: Db, xpubs: Xpubs, code: (typeof DERIVED_CURRENCIES)[number]): Promise<{ index: number; address: string }> {
  const result = (await db.execute(sql`
    insert into address_counters (currency, next_index) values (${code}, 1)
    on conflict (currency) do update set next_index = address_counters.next_index + 1
    returning next_index - 1 as index`)) as unknown as { rows: { index: number | string }[] };
  const index = Number(result.rows[0]!.index);
  return { index, address: deriveAddress(code, xpubs, index) };
}

export async function listAddresses(db: Db, ownerId: string) {
  const rows = await db.select().from(receptionAddresses).where(eq(receptionAddresses.ownerId, ownerId)).orderBy(asc(receptionAddresses.createdAt));
  return rows.map(view);
}

export async function relabelAddress(db: Db, input: { ownerId: string; id: string; label: string | null }) {
  if (!/^[0-9a-f-]{36}$/i.test(input.id)) throw new ApiError(404, 'not_found');
  const [row] = await db
    .update(receptionAddresses)
    .set({ label: input.label })
    .where(and(eq(receptionAddresses.id, input.id), eq(receptionAddresses.ownerId, input.ownerId)))
    .returning();
  if (!row) throw new ApiError(404, 'not_found');
  return view(row);
}

export async function findByAddress(db: Db, currency: string, address: string): Promise<ReceptionAddress | undefined> {
  const [row] = await db
    .select()
    .from(receptionAddresses)
    .where(and(eq(receptionAddresses.currency, currency), eq(receptionAddresses.address, address)));
  return row;
}
