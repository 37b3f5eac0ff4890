import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { orders } from '../../db/schema';
import type { Db } from '../../db/client';

/**
 * SQL for support and the service status. Both read the orders table (support has no table of its
 * own: requests are outbox messages, written through notify).
 */
export const supportRepository = {
  async orderExists(db: Db, reference: string): Promise<boolean> {
    const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.reference, reference)).limit(1);
    return order !== undefined;
  },

  /** Paid orders the worker still has to convert, and those funded before the cutoff. */
  async orderBacklog(db: Db, cutoff: Date): Promise<{ waiting: number; delayed: number }> {
    const [row] = await db
      .select({ waiting: count(), delayed: count(sql`case when ${orders.fundedAt} < ${cutoff.toISOString()} then 1 end`) })
      .from(orders)
      .where(and(eq(orders.status, 'processing'), isNull(orders.settledAt)));
    return { waiting: Number(row?.waiting ?? 0), delayed: Number(row?.delayed ?? 0) };
  },
};
