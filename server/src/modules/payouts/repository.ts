import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { chainHouseTxs } from '../../db/schema/chain';
import { orders } from '../../db/schema/orders';
import { payouts } from '../../db/schema/payouts';
import { walletSends } from '../../db/schema/wallet';
import type { PayoutStatus } from '#domain/payouts';
import type { Db } from '../../db/client';

/** SQL of the payouts table; the service decides, this only reads and writes rows. */
export type PayoutRow = typeof payouts.$inferSelect;
export type NewPayout = typeof payouts.$inferInsert;

export const payoutsRepository = {
  /** Whose money a payout is: the order's account and email key, or the send's owner. */
  async beneficiary(db: Db, id: string): Promise<{ accountId: string | null; emailKey: string | null } | undefined> {
    const [row] = await db
      .select({
        accountId: sql<string | null>`coalesce(${orders.accountId}, ${walletSends.ownerId})`,
        emailKey: orders.emailKey,
      })
      .from(payouts)
      .leftJoin(orders, eq(orders.id, payouts.orderId))
      .leftJoin(walletSends, eq(walletSends.id, payouts.sendId))
      .where(eq(payouts.id, id));
    return row;
  },

  /** Inserts the payout once per idempotency key; returns the row that holds the key. */
  async insert(db: Db, values: NewPayout): Promise<{ row: PayoutRow; created: boolean }> {
    const [created] = await db
      .insert(payouts)
      .values(values)
      .onConflictDoNothing({ target: payouts.idempotencyKey })
      .returning();
    if (created) return { row: created, created: true };
    const [existing] = await db.select().from(payouts).where(eq(payouts.idempotencyKey, values.idempotencyKey));
    return { row: existing!, created: false };
  },

  /**
   * Takes the oldest payout due for the adapter: pending ones, and those whose worker died while
   * submitting (its lease ran out). SKIP LOCKED hands each to one worker; the lease keeps the
   * others away until this one has booked the result. Committed on its own, before the adapter
   * is called.
   */
  async claimNext(db: Db, leaseMs: number): Promise<PayoutRow | undefined> {
    const due = db
      .select({ id: payouts.id })
      .from(payouts)
      .where(
        and(
          inArray(payouts.status, ['pending', 'submitting']),
          sql`(${payouts.lockedUntil} is null or ${payouts.lockedUntil} < now())`,
        ),
      )
      .orderBy(asc(payouts.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    const [claimed] = await db
      .update(payouts)
      .set({
        status: 'submitting',
        attempts: sql`${payouts.attempts} + 1`,
        lockedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
      })
      .where(inArray(payouts.id, due))
      .returning();
    return claimed;
  },

  /** The adapter could not be reached: back to pending, not before `retryMs` from now. */
  async release(db: Db, id: string, attempts: number, retryMs: number): Promise<void> {
    await db
      .update(payouts)
      .set({ status: 'pending', lockedUntil: sql`now() + make_interval(secs => ${retryMs / 1000})` })
      .where(and(eq(payouts.id, id), eq(payouts.status, 'submitting'), eq(payouts.attempts, attempts)));
  },

  async lock(db: Db, id: string): Promise<PayoutRow | undefined> {
    const [row] = await db.select().from(payouts).where(eq(payouts.id, id)).for('update');
    return row;
  },

  async update(
    db: Db,
    id: string,
    values: Partial<
      Pick<
        PayoutRow,
        | 'status'
        | 'txid'
        | 'txids'
        | 'chainFee'
        | 'confirmedHeight'
        | 'failureReason'
        | 'submittedAt'
        | 'completedAt'
        | 'lockedUntil'
        | 'reviewedBy'
        | 'reviewedAt'
        | 'approvedBy'
        | 'approvedAt'
        | 'rejectedBy'
        | 'rejectedAt'
      >
    >,
  ): Promise<PayoutRow> {
    const [row] = await db.update(payouts).set(values).where(eq(payouts.id, id)).returning();
    return row!;
  },

  async list(db: Db, filter: { status?: PayoutStatus; rail?: PayoutRow['rail']; limit: number }): Promise<PayoutRow[]> {
    return db
      .select()
      .from(payouts)
      .where(
        and(
          filter.status ? eq(payouts.status, filter.status) : undefined,
          filter.rail ? eq(payouts.rail, filter.rail) : undefined,
        ),
      )
      .orderBy(asc(payouts.createdAt))
      .limit(filter.limit);
  },

  /**
   * EUR payouts due for a bank file, oldest first, locked: pending (booked, waiting) or submitted
   * (handed to the external bank executor), in no file yet. SKIP LOCKED: an export running at the
   * same time takes the others, so no payout is in two files; one a worker is submitting right
   * now is left to the next file.
   */
  async lockDueForBankFile(db: Db, limit: number): Promise<PayoutRow[]> {
    return db
      .select()
      .from(payouts)
      .where(
        and(
          eq(payouts.rail, 'bank'),
          eq(payouts.currency, 'EUR'),
          inArray(payouts.status, ['pending', 'submitted']),
          isNull(payouts.bankExportId),
        ),
      )
      .orderBy(asc(payouts.createdAt))
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  /** In the bank's hands: submitted, naming the file (rows locked by lockDueForBankFile). */
  async markInBankFile(db: Db, ids: string[], exportId: string, now: Date): Promise<void> {
    await db
      .update(payouts)
      .set({
        status: 'submitted',
        submittedAt: sql`coalesce(${payouts.submittedAt}, ${now.toISOString()}::timestamptz)`,
        lockedUntil: null,
        bankExportId: exportId,
      })
      .where(inArray(payouts.id, ids));
  },

  /** How many wait for two operators. */
  async countAwaitingApproval(db: Db): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(payouts)
      .where(eq(payouts.status, 'awaiting_approval'));
    return row?.n ?? 0;
  },

  /** How many payouts ever sent this chain output back (a failed one leaves it in the queue again). */
  async countForChainOutput(db: Db, chainOutput: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(payouts)
      .where(eq(payouts.chainOutput, chainOutput));
    return row?.n ?? 0;
  },

  /** An order's payouts (its delivery, or its refund), oldest first. */
  ofOrder(db: Db, orderId: string): Promise<PayoutRow[]> {
    return db.select().from(payouts).where(eq(payouts.orderId, orderId)).orderBy(asc(payouts.createdAt));
  },

  async statusesOf(db: Db, ids: string[]): Promise<{ id: string; status: PayoutStatus }[]> {
    if (ids.length === 0) return [];
    return db.select({ id: payouts.id, status: payouts.status }).from(payouts).where(inArray(payouts.id, ids));
  },

  async find(db: Db, id: string): Promise<PayoutRow | undefined> {
    const [row] = await db.select().from(payouts).where(eq(payouts.id, id));
    return row;
  },

  async waiting(db: Db, cutoff: Date): Promise<{ waiting: number; delayed: number }> {
    const [row] = await db
      .select({
        waiting: sql<number>`count(*)::int`,
        delayed: sql<number>`count(case when ${payouts.createdAt} < ${cutoff.toISOString()} then 1 end)::int`,
      })
      .from(payouts)
      .where(inArray(payouts.status, ['pending', 'submitting', 'submitted', 'broadcast']));
    return { waiting: Number(row?.waiting ?? 0), delayed: Number(row?.delayed ?? 0) };
  },

  /**
   * Broadcast chain payouts whose transaction (any of its txids: the original may be mined instead
   * of its replacement) is in a block at `height`: the mined txid becomes `txid`.
   */
  /** Whether a payout in this currency carries this transaction hash (any of its txids). */
  async hasTxid(db: Db, currency: string, txid: string): Promise<boolean> {
    const rows = await db
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.currency, currency), sql`${txid} = any(${payouts.txids})`))
      .limit(1);
    return rows.length > 0;
  },

  /** The broadcast chain payout one of whose transactions (a replacement included) is this txid, locked. */
  async lockBroadcastByTxid(db: Db, currency: string, txid: string): Promise<PayoutRow | undefined> {
    const [row] = await db
      .select()
      .from(payouts)
      .where(
        and(
          eq(payouts.rail, 'chain'),
          eq(payouts.currency, currency),
          eq(payouts.status, 'broadcast'),
          sql`${payouts.txids} && ${sql.param([txid])}::text[]`,
        ),
      )
      .for('update');
    return row;
  },

  async markInBlock(db: Db, currency: string, txids: string[], height: number): Promise<void> {
    if (txids.length === 0) return;
    const found = await db
      .select({ id: payouts.id, txids: payouts.txids })
      .from(payouts)
      .where(
        and(
          eq(payouts.rail, 'chain'),
          eq(payouts.currency, currency),
          eq(payouts.status, 'broadcast'),
          sql`${payouts.txids} && ${sql.param(txids)}::text[]`,
        ),
      );
    const mined = new Set(txids);
    for (const row of found) {
      await db
        .update(payouts)
        .set({ confirmedHeight: height, txid: row.txids.find((txid) => mined.has(txid))! })
        .where(eq(payouts.id, row.id));
    }
  },

  async unconfirmAbove(db: Db, currency: string, height: number): Promise<void> {
    await db
      .update(payouts)
      .set({ confirmedHeight: null })
      .where(
        and(
          eq(payouts.rail, 'chain'),
          eq(payouts.currency, currency),
          eq(payouts.status, 'broadcast'),
          sql`${payouts.confirmedHeight} > ${height}`,
        ),
      );
  },

  async confirmedAtOrBelow(db: Db, currency: string, height: number): Promise<PayoutRow[]> {
    return db
      .select()
      .from(payouts)
      .where(
        and(
          eq(payouts.rail, 'chain'),
          eq(payouts.currency, currency),
          eq(payouts.status, 'broadcast'),
          sql`${payouts.confirmedHeight} <= ${height}`,
        ),
      );
  },

  async completedAbove(db: Db, currency: string, height: number): Promise<string[]> {
    const rows = await db
      .select({ id: payouts.id })
      .from(payouts)
      .where(
        and(
          eq(payouts.rail, 'chain'),
          eq(payouts.currency, currency),
          eq(payouts.status, 'completed'),
          sql`${payouts.confirmedHeight} > ${height}`,
        ),
      );
    return rows.map((row) => row.id);
  },

  /** Broadcast chain payouts already in a block (not yet confirmed enough to be booked): amount and the fee share. */
  async minedNotBooked(db: Db, currency: string): Promise<bigint> {
    const [row] = await db
      // A transaction mined with status 0 (ether) moved its gas only.
      .select({
        total: sql<string>`coalesce(sum(case when exists (select 1 from ${chainHouseTxs} h where h.currency = ${payouts.currency} and h.txid = ${payouts.txid} and h.failed) then 0 else ${payouts.amount} end + coalesce(${payouts.chainFee}, 0)), 0)::text`,
      })
      .from(payouts)
      .where(
        and(
          eq(payouts.rail, 'chain'),
          eq(payouts.currency, currency),
          eq(payouts.status, 'broadcast'),
          sql`${payouts.confirmedHeight} is not null`,
        ),
      );
    return BigInt(row?.total ?? '0');
  },
};
