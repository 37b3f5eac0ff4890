import { and, eq, gte, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { SEND_STATUSES_MOVING_VALUE } from '#domain/wallet';
import { lockKeys, rows } from '../../db/raw';
import { orders } from '../../db/schema/orders';
import { walletSends } from '../../db/schema/wallet';
import type { Db } from '../../db/client';

/**
 * Who a customer is, for the limits: their account, and the link keys their orders carry — the
 * email's link key (domain/customer-key.ts), the owner of the payout destination, the payer's IBAN.
 */
export type CustomerKeys = {
  accountId?: string | null;
  emailKey?: string | null;
  payoutKey?: string | null;
  payerKey?: string | null;
};

/** SQL for what a customer moved: their exchanges (migration 0030's functions) and sends. */
export const volumeRepository = {
  /**
   * Takes a transaction-scoped advisory lock per key, in a fixed order (no deadlock between two
   * customers sharing a key). Every check of a customer's volume holds them until it commits, so
   * checks of one customer run one after another and each sees what the previous one added.
   */
  async lock(db: Db, keys: string[]): Promise<void> {
    await lockKeys(db, keys);
  },

  /**
   * EUR cents of the customer's exchanges that moved since then and did not fail (an order paid
   * from the wallet from when it was paid, any other from its conversion); `includeOpen`: also those
   * placed since then and not converted yet (the anonymous placement's count); `except`: the order
   * being judged.
   */
  async ordersEurMinor(
    db: Db,
    customer: CustomerKeys,
    since: Date,
    includeOpen: boolean,
    except?: string,
  ): Promise<bigint> {
    if (!customer.accountId && !customer.emailKey && !customer.payoutKey && !customer.payerKey) return 0n;
    const [row] = await rows<{ total: string }>(
      db,
      sql`select customer_orders_eur(${customer.accountId ?? null}::uuid, ${customer.emailKey ?? null}, ${customer.payoutKey ?? null}, ${customer.payerKey ?? null}, ${since.toISOString()}::timestamptz, ${includeOpen}, ${except ?? null}::uuid)::text as total`,
    );
    return BigInt(row!.total);
  },

  /** Whether an exchange of this account or email key (other than `except`) completed successfully. */
  async hasCompletedExchange(db: Db, customer: CustomerKeys, except?: string): Promise<boolean> {
    if (!customer.emailKey && !customer.accountId) return false;
    const [row] = await rows<{ completed: boolean }>(
      db,
      sql`select customer_has_completed_order(${customer.accountId ?? null}::uuid, ${customer.emailKey ?? null}, ${except ?? null}::uuid) as completed`,
    );
    return row!.completed;
  },

  /** The account's sends confirmed since then that went or are going out (or to another wallet). */
  async confirmedSends(db: Db, ownerId: string, since: Date) {
    return db
      .select({ currency: walletSends.currency, amount: walletSends.amount, eurValue: walletSends.eurValue })
      .from(walletSends)
      .where(
        and(
          eq(walletSends.ownerId, ownerId),
          inArray(walletSends.status, [...SEND_STATUSES_MOVING_VALUE]),
          gte(walletSends.confirmedAt, since),
        ),
      );
  },

  /** EUR cents of the account's orders paid from its wallet to a destination outside it since then, not failed. */
  async walletPaidOrdersEurMinor(db: Db, accountId: string, since: Date): Promise<bigint> {
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${orders.amountEur}), 0)::text` })
      .from(orders)
      .where(
        and(
          eq(orders.accountId, accountId),
          eq(orders.useMyWallet, true),
          eq(orders.sendToMyWallet, false),
          ne(orders.status, 'completed_failure'),
          isNotNull(orders.fundedAt),
          gte(orders.fundedAt, since),
        ),
      );
    return BigInt(row!.total);
  },
};
