import { and, asc, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { lockKey } from '../../db/raw';
import { outbox } from '../../db/schema';
import type { Db } from '../../db/client';

export type OutboxRow = typeof outbox.$inferSelect;

/** SQL for the outbox (every message to a user, and the mail relay's queue). Methods take the database or a transaction. */
export const notifyRepository = {
  async insert(db: Db, message: typeof outbox.$inferInsert): Promise<void> {
    await db.insert(outbox).values(message);
  },

  /** Deletes the messages whose retention date has passed; returns how many. */
  async deleteExpired(db: Db, now: Date): Promise<number> {
    const deleted = await db.delete(outbox).where(lt(outbox.retainUntil, now)).returning({ id: outbox.id });
    return deleted.length;
  },

  /**
   * When messages went to this recipient on this channel since then. Holds a transaction-scoped
   * lock on the recipient first, so that two senders who count at once do not both send.
   */
  async lockAndListSentTo(db: Db, channel: OutboxRow['channel'], recipient: string, since: Date): Promise<Date[]> {
    await lockKey(db, `outbox:${channel}:${recipient}`);
    const rows = await db
      .select({ createdAt: outbox.createdAt })
      .from(outbox)
      .where(and(eq(outbox.channel, channel), eq(outbox.recipient, recipient), gt(outbox.createdAt, since)));
    return rows.map((row) => row.createdAt);
  },

  /** The newest `limit` messages, to anyone or, when given, to one recipient (compared without case). */
  list(db: Db, limit: number, recipient?: string) {
    const query = db
      .select({ channel: outbox.channel, to: outbox.recipient, subject: outbox.subject, body: outbox.body, html: outbox.html, createdAt: outbox.createdAt })
      .from(outbox)
      .orderBy(desc(outbox.createdAt))
      .limit(limit);
    return recipient === undefined ? query : query.where(sql`lower(${outbox.recipient}) = lower(${recipient})`);
  },

  /**
   * The oldest emails not sent yet and tried fewer than `maxAttempts` times, locked until the
   * transaction ends; rows another replica's relay holds are skipped (FOR UPDATE SKIP LOCKED).
   */
  lockWaitingEmails(db: Db, limit: number, maxAttempts: number): Promise<OutboxRow[]> {
    return db
      .select()
      .from(outbox)
      .where(and(eq(outbox.channel, 'email'), isNull(outbox.sentAt), lt(outbox.attempts, maxAttempts)))
      .orderBy(asc(outbox.createdAt))
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  async markSent(db: Db, id: string): Promise<void> {
    await db.update(outbox).set({ sentAt: new Date(), lastError: null }).where(eq(outbox.id, id));
  },

  async countFailedAttempt(db: Db, id: string, lastError: string): Promise<void> {
    await db
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} + 1`, lastError })
      .where(eq(outbox.id, id));
  },
};
