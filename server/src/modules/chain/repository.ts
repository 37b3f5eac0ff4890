import { sql } from 'drizzle-orm';
import { addressCounters } from '../../db/schema';
import type { Db } from '../../db/client';

/** SQL for the derivation counters of the house keys. */
export const chainRepository = {
  /**
   * Takes the next index of a currency's counter. Concurrent callers queue on the counter's row
   * (the upsert locks it), so each gets its own index.
   */
  async takeNextIndex(db: Db, currency: string): Promise<number> {
    const [row] = await db
      .insert(addressCounters)
      .values({ currency, nextIndex: 1 })
      .onConflictDoUpdate({ target: addressCounters.currency, set: { nextIndex: sql`${addressCounters.nextIndex} + 1` } })
      .returning({ nextIndex: addressCounters.nextIndex });
    return Number(row!.nextIndex) - 1;
  },
};
