import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { VERIFICATION_KINDS } from '#domain/verification';
import { accounts } from '../../db/schema/accounts';
import { verifications } from '../../db/schema/identity';
import type { Db } from '../../db/client';

export type AccountRow = typeof accounts.$inferSelect;

/** SQL for accounts. Methods take the database or a transaction, so services compose them. */
export const accountsRepository = {
  async findBySubject(db: Db, issuer: string, subject: string): Promise<AccountRow | undefined> {
    const [row] = await db
      .select()
      .from(accounts)
      .where(and(eq(accounts.issuer, issuer), eq(accounts.subject, subject)))
      .limit(1);
    return row;
  },

  async keysOf(db: Db, ids: string[]): Promise<{ id: string; accountKey: string; email: string | null }[]> {
    return db
      .select({ id: accounts.id, accountKey: accounts.accountKey, email: accounts.email })
      .from(accounts)
      .where(inArray(accounts.id, ids));
  },

  async findById(db: Db, id: string): Promise<AccountRow | undefined> {
    const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
    return row;
  },

  async findByKey(db: Db, accountKey: string): Promise<AccountRow | undefined> {
    const [row] = await db.select().from(accounts).where(eq(accounts.accountKey, accountKey));
    return row;
  },

  /** The id of the one account of each of these addresses; an address two accounts share is left out. */
  async soleIdsOfEmails(db: Db, emails: string[]): Promise<{ email: string | null; id: string }[]> {
    return db
      .select({ email: accounts.email, id: sql<string>`min(${accounts.id}::text)` })
      .from(accounts)
      .where(inArray(accounts.email, emails))
      .groupBy(accounts.email)
      .having(sql`count(*) = 1`);
  },

  /** `email` as domain/email's emailKey gives it. */
  async findByEmail(db: Db, email: string): Promise<AccountRow[]> {
    return db.select().from(accounts).where(eq(accounts.email, email));
  },

  /** Inserts the account and its five empty verification rows; nothing when it already exists. */
  async insert(db: Db, values: typeof accounts.$inferInsert): Promise<AccountRow | undefined> {
    return db.transaction(async (tx) => {
      const [row] = await tx.insert(accounts).values(values).onConflictDoNothing().returning();
      if (!row) return undefined;
      await tx.insert(verifications).values(VERIFICATION_KINDS.map((kind) => ({ accountId: row.id, kind })));
      return row;
    });
  },

  async updateProfile(db: Db, id: string, profile: { email?: string | null; displayName?: string | null }) {
    await db.update(accounts).set(profile).where(eq(accounts.id, id));
  },

  async verificationPhases(db: Db, accountId: string) {
    return db
      .select({ kind: verifications.kind, phase: verifications.phase })
      .from(verifications)
      .where(eq(verifications.accountId, accountId));
  },

  /** Operators' search: the account whose key is `q`, and those whose email contains it (lower case), newest first. */
  search(db: Db, q: string, limit: number): Promise<AccountRow[]> {
    const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return db
      .select()
      .from(accounts)
      .where(or(eq(accounts.accountKey, q.toUpperCase()), sql`lower(${accounts.email}) like ${pattern}`))
      .orderBy(desc(accounts.createdAt))
      .limit(limit);
  },

  async list(db: Db): Promise<AccountRow[]> {
    return db.select().from(accounts).orderBy(accounts.createdAt);
  },
};
