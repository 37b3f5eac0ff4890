import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { lockKeys, rows } from '../../db/raw';
import { walletSends } from '../../db/schema';
import type { Db } from '../../db/client';

export type CustomerKeys = { accountId?: string | null; email?: string | null; address?: string | null };

/** SQL for a customer's weekly volume: their orders (by account, email, payout address) and sends. */
export const volumeRepository = {
  /**
   * Takes a transaction-scoped advisory lock per key, in a fixed order (no deadlock between two
   * customers sharing a key). Every check of a customer's volume holds them until it commits, so
   * checks of one customer run one after another and each sees what the previous one added.
   */
  async lock(db: Db, keys: string[]): Promise<void> {
    await lockKeys(db, keys);
  },

  /** EUR cents of the customer's orders placed since then, except those that failed (nothing left or came back). */
  async ordersEurMinor(db: Db, customer: CustomerKeys, since: Date): Promise<bigint> {
    if (!customer.accountId && !customer.email && !customer.address) return 0n;
    // The rule is a SQL function (migration 0016): the anonymous placement applies it in the database.
    const [row] = await rows<{ total: string }>(
      db,
      sql`select customer_orders_eur(${customer.accountId ?? null}::uuid, ${customer.email ?? null}, ${customer.address ?? null}, ${since.toISOString()}::timestamptz)::text as total`,
    );
    return BigInt(row!.total);
  },

  /** The account's sends confirmed since then that went or are going out. */
  async confirmedSends(db: Db, ownerId: string, since: Date) {
    return db
      .select({ currency: walletSends.currency, amount: walletSends.amount, eurValue: walletSends.eurValue })
      .from(walletSends)
      .where(and(eq(walletSends.ownerId, ownerId), inArray(walletSends.status, ['processing', 'completed']), gte(walletSends.confirmedAt, since)));
  },
};
