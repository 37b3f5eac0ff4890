import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  accountProtection,
  addressBook,
  securityEvents,
  securityLinks,
  signInDevices,
} from '../../db/schema/protection';
import type { Db } from '../../db/client';

export type ProtectionRow = typeof accountProtection.$inferSelect;
export type BookEntry = typeof addressBook.$inferSelect;
export type SecurityLinkRow = typeof securityLinks.$inferSelect;
export type SecurityEventRow = typeof securityEvents.$inferSelect;

/** SQL for account protection. Methods take the database or a transaction, so services compose them. */
export const protectionRepository = {
  /** The account's protection row, locked (FOR UPDATE or FOR SHARE) until the transaction ends when asked. */
  async lockedProtection(db: Db, accountId: string, lock?: 'update' | 'share'): Promise<ProtectionRow | undefined> {
    const query = db.select().from(accountProtection).where(eq(accountProtection.accountId, accountId));
    const [row] = lock ? await query.for(lock) : await query;
    return row;
  },

  /** Makes the account's row with the defaults of a new account, allow-list mode on since `since`, unless it has one. */
  async insertDefaultProtection(db: Db, accountId: string, since: Date): Promise<void> {
    await db.insert(accountProtection).values({ accountId, allowListSince: since }).onConflictDoNothing();
  },

  /** The account's protection row as it is, without making one (none: the defaults, never frozen). */
  async findProtection(db: Db, accountId: string): Promise<ProtectionRow | undefined> {
    const [row] = await db.select().from(accountProtection).where(eq(accountProtection.accountId, accountId));
    return row;
  },

  async updateProtection(
    db: Db,
    accountId: string,
    values: Partial<Omit<ProtectionRow, 'accountId'>>,
  ): Promise<ProtectionRow> {
    const [row] = await db
      .update(accountProtection)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(accountProtection.accountId, accountId))
      .returning();
    return row!;
  },

  async entryById(db: Db, id: string): Promise<BookEntry | undefined> {
    const [row] = await db.select().from(addressBook).where(eq(addressBook.id, id));
    return row;
  },

  liveEntries(db: Db, accountId: string): Promise<BookEntry[]> {
    return db
      .select()
      .from(addressBook)
      .where(and(eq(addressBook.accountId, accountId), isNull(addressBook.cancelledAt)))
      .orderBy(asc(addressBook.createdAt));
  },

  async countLiveEntries(db: Db, accountId: string): Promise<number> {
    const [row] = await db
      .select({ entries: count() })
      .from(addressBook)
      .where(and(eq(addressBook.accountId, accountId), isNull(addressBook.cancelledAt)));
    return row?.entries ?? 0;
  },

  /** The live entry for this canonical address, if any. */
  async liveEntry(db: Db, accountId: string, currency: string, address: string): Promise<BookEntry | undefined> {
    const [row] = await db
      .select()
      .from(addressBook)
      .where(
        and(
          eq(addressBook.accountId, accountId),
          eq(addressBook.currency, currency),
          eq(addressBook.address, address),
          isNull(addressBook.cancelledAt),
        ),
      );
    return row;
  },

  /** The new entry, or undefined when the account has a live entry for this address already (the unique index decides). */
  async insertEntry(db: Db, values: typeof addressBook.$inferInsert): Promise<BookEntry | undefined> {
    const [row] = await db
      .insert(addressBook)
      .values(values)
      .onConflictDoNothing({
        target: [addressBook.accountId, addressBook.currency, addressBook.address],
        where: sql`${addressBook.cancelledAt} is null`,
      })
      .returning();
    return row;
  },

  /** Cancels the account's live entry with this id; undefined when it has none (another's entry, or cancelled already). */
  async cancelEntry(db: Db, accountId: string, id: string, at: Date): Promise<BookEntry | undefined> {
    const [row] = await db
      .update(addressBook)
      .set({ cancelledAt: at })
      .where(and(eq(addressBook.id, id), eq(addressBook.accountId, accountId), isNull(addressBook.cancelledAt)))
      .returning();
    return row;
  },

  async insertLink(db: Db, values: typeof securityLinks.$inferInsert): Promise<SecurityLinkRow> {
    const [row] = await db.insert(securityLinks).values(values).returning();
    return row!;
  },

  async findLink(db: Db, id: string): Promise<SecurityLinkRow | undefined> {
    const [row] = await db.select().from(securityLinks).where(eq(securityLinks.id, id));
    return row;
  },

  /** Marks the link used; undefined when it was used already (two clicks at once: one wins). */
  async useLink(db: Db, id: string, at: Date): Promise<SecurityLinkRow | undefined> {
    const [row] = await db
      .update(securityLinks)
      .set({ usedAt: at })
      .where(and(eq(securityLinks.id, id), isNull(securityLinks.usedAt)))
      .returning();
    return row;
  },

  /** The language of the account's latest security email (its links remember it): the operator's emails are written in it. */
  async lastEmailLanguage(db: Db, accountId: string): Promise<string | undefined> {
    const [row] = await db
      .select({ language: securityLinks.language })
      .from(securityLinks)
      .where(eq(securityLinks.accountId, accountId))
      .orderBy(desc(securityLinks.createdAt))
      .limit(1);
    return row?.language;
  },

  async insertEvent(db: Db, values: typeof securityEvents.$inferInsert): Promise<void> {
    await db.insert(securityEvents).values(values);
  },

  recentEvents(db: Db, accountId: string, limit: number): Promise<SecurityEventRow[]> {
    return db
      .select()
      .from(securityEvents)
      .where(eq(securityEvents.accountId, accountId))
      .orderBy(desc(securityEvents.createdAt))
      .limit(limit);
  },

  /** A login from a device the subject used before: notes when; false when the device is new to it. */
  async touchDevice(db: Db, issuer: string, subject: string, deviceHash: string, at: Date): Promise<boolean> {
    const rows = await db
      .update(signInDevices)
      .set({ lastSeenAt: at })
      .where(
        and(
          eq(signInDevices.issuer, issuer),
          eq(signInDevices.subject, subject),
          eq(signInDevices.deviceHash, deviceHash),
        ),
      )
      .returning({ deviceHash: signInDevices.deviceHash });
    return rows.length > 0;
  },

  async countDevices(db: Db, issuer: string, subject: string): Promise<number> {
    const [row] = await db
      .select({ devices: count() })
      .from(signInDevices)
      .where(and(eq(signInDevices.issuer, issuer), eq(signInDevices.subject, subject)));
    return row?.devices ?? 0;
  },

  async insertDevice(db: Db, values: typeof signInDevices.$inferInsert): Promise<void> {
    await db.insert(signInDevices).values(values).onConflictDoNothing();
  },
};
