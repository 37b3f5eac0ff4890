import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { lockKey } from '../../db/raw';
import { antiPhishingPhrases, outbox } from '../../db/schema/notify';
import type { Db } from '../../db/client';

export type OutboxRow = typeof outbox.$inferSelect;

/** SQL for the outbox (every message to a user, and the mail relay's queue). Methods take the database or a transaction. */
export const notifyRepository = {
  /** The anti-phishing phrases these accounts set (account id → phrase), in one query. */
  async phrasesOfAccounts(db: Db, accountIds: string[]): Promise<Map<string, string>> {
    if (accountIds.length === 0) return new Map();
    const found = await db
      .select({ accountId: antiPhishingPhrases.accountId, phrase: antiPhishingPhrases.phrase })
      .from(antiPhishingPhrases)
      .where(inArray(antiPhishingPhrases.accountId, accountIds));
    return new Map(found.map(({ accountId, phrase }) => [accountId, phrase]));
  },

  async phraseOf(db: Db, accountId: string): Promise<{ phrase: string; setAt: Date } | undefined> {
    const [row] = await db
      .select({ phrase: antiPhishingPhrases.phrase, setAt: antiPhishingPhrases.setAt })
      .from(antiPhishingPhrases)
      .where(eq(antiPhishingPhrases.accountId, accountId));
    return row;
  },

  async setPhrase(db: Db, accountId: string, phrase: string | null): Promise<void> {
    if (phrase === null) {
      await db.delete(antiPhishingPhrases).where(eq(antiPhishingPhrases.accountId, accountId));
      return;
    }
    const setAt = new Date();
    await db
      .insert(antiPhishingPhrases)
      .values({ accountId, phrase, setAt })
      .onConflictDoUpdate({ target: antiPhishingPhrases.accountId, set: { phrase, setAt } });
  },

  async insert(db: Db, message: typeof outbox.$inferInsert): Promise<void> {
    await db.insert(outbox).values(message);
  },

  /** Deletes the messages whose retention date has passed (and, of an account's, whose account meets `alsoEnded`); returns how many. */
  async deleteExpired(db: Db, now: Date, alsoEnded?: (accountId: typeof outbox.accountId) => SQL): Promise<number> {
    const accountEnded = alsoEnded ? or(isNull(outbox.accountId), alsoEnded(outbox.accountId)) : undefined;
    const deleted = await db
      .delete(outbox)
      .where(and(lt(outbox.retainUntil, now), accountEnded))
      .returning({ id: outbox.id });
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

  /** The newest `limit` written messages, to anyone or, when given, to one recipient (compared without case). */
  async list(db: Db, limit: number, recipient?: string) {
    const rows = await db
      .select({
        channel: outbox.channel,
        to: outbox.recipient,
        subject: outbox.subject,
        body: outbox.body,
        html: outbox.html,
        createdAt: outbox.createdAt,
      })
      .from(outbox)
      .where(
        and(
          isNotNull(outbox.body),
          recipient === undefined ? undefined : sql`lower(${outbox.recipient}) = lower(${recipient})`,
        ),
      )
      .orderBy(desc(outbox.createdAt))
      .limit(limit);
    return rows.map((row) => ({ ...row, subject: row.subject ?? '', body: row.body ?? '' }));
  },

  /**
   * The oldest emails kept as templates, locked until the transaction ends: the background writer
   * skips rows another writer holds (`skipLocked`); a reader about to list the outbox waits for
   * them instead, and finds them written.
   */
  lockUnwritten(db: Db, limit: number, skipLocked: boolean) {
    return db
      .select({
        id: outbox.id,
        recipient: outbox.recipient,
        template: outbox.template,
        params: outbox.params,
      })
      .from(outbox)
      .where(isNull(outbox.body))
      .orderBy(asc(outbox.createdAt))
      .limit(limit)
      .for('update', skipLocked ? { skipLocked: true } : {});
  },

  /** Fills in the written emails, all in one statement, and clears what they were written from. */
  async markWritten(db: Db, written: { id: string; subject: string; body: string; html: string }[]): Promise<void> {
    if (written.length === 0) return;
    await db.execute(sql`update ${outbox} set subject = w.subject, body = w.body, html = w.html, params = null
      from jsonb_to_recordset(${JSON.stringify(written)}::jsonb) as w(id uuid, subject text, body text, html text)
      where ${outbox.id} = w.id`);
  },

  /**
   * The oldest emails not sent yet and tried fewer than `maxAttempts` times, locked until the
   * transaction ends; rows another replica's relay holds are skipped (FOR UPDATE SKIP LOCKED).
   */
  lockWaitingEmails(db: Db, limit: number, maxAttempts: number): Promise<OutboxRow[]> {
    return db
      .select()
      .from(outbox)
      .where(
        and(
          eq(outbox.channel, 'email'),
          isNull(outbox.sentAt),
          isNotNull(outbox.body),
          lt(outbox.attempts, maxAttempts),
        ),
      )
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
