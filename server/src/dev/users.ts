import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { idpUsers } from '../db/schema/dev';
import type { Db } from '../db/client';

/** Users of the local identity provider; passwords hashed with scrypt. */
const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

export type IdpUser = typeof idpUsers.$inferSelect;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

export const idpUsersRepository = {
  async findById(db: Db, id: string): Promise<IdpUser | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const [user] = await db.select().from(idpUsers).where(eq(idpUsers.id, id)).limit(1);
    return user;
  },
  async findByEmail(db: Db, email: string): Promise<IdpUser | undefined> {
    const [user] = await db.select().from(idpUsers).where(eq(idpUsers.email, email.trim().toLowerCase())).limit(1);
    return user;
  },
  /** Creates the user; undefined when the email is taken. */
  async create(db: Db, input: { email: string; name: string; password: string }): Promise<IdpUser | undefined> {
    const [user] = await db
      .insert(idpUsers)
      .values({
        email: input.email.trim().toLowerCase(),
        name: input.name.trim(),
        passwordHash: await hashPassword(input.password),
      })
      .onConflictDoNothing()
      .returning();
    return user;
  },
  async ensure(db: Db, input: { email: string; name: string; password: string }): Promise<IdpUser> {
    return (
      (await this.findByEmail(db, input.email)) ??
      (await this.create(db, input)) ??
      (await this.findByEmail(db, input.email))!
    );
  },
  /** A new one-time-password secret, not asked at login until its first code confirms it. */
  async startTotp(db: Db, id: string, secret: string): Promise<void> {
    await db
      .update(idpUsers)
      .set({ totpSecret: secret, totpConfirmedAt: null, totpLastStep: null })
      .where(eq(idpUsers.id, id));
  },

  async confirmTotp(db: Db, id: string, step: number): Promise<void> {
    await db.update(idpUsers).set({ totpConfirmedAt: new Date(), totpLastStep: step }).where(eq(idpUsers.id, id));
  },

  /** Accepts a code's time step once: false when it, or a later one, was accepted already (a replayed code). */
  async acceptTotpStep(db: Db, id: string, step: number): Promise<boolean> {
    const rows = await db
      .update(idpUsers)
      .set({ totpLastStep: step })
      .where(and(eq(idpUsers.id, id), or(isNull(idpUsers.totpLastStep), lt(idpUsers.totpLastStep, step))))
      .returning({ id: idpUsers.id });
    return rows.length === 1;
  },

  /**
   * Counts one one-time-password attempt against the account before its code is checked, in one
   * statement (two replicas, or 40 requests at once, cannot all read the same count and all try):
   * the count starts again once `windowMs` has passed since the first failure of the window.
   * Answers the count with this attempt and since when it runs.
   */
  async claimOtpAttempt(db: Db, id: string, now: Date, windowMs: number): Promise<{ failures: number; since: Date }> {
    const cutoff = new Date(now.getTime() - windowMs).toISOString();
    const fresh = sql`${idpUsers.otpFailedSince} is null or ${idpUsers.otpFailedSince} <= ${cutoff}`;
    const [row] = await db
      .update(idpUsers)
      .set({
        otpFailures: sql`case when ${fresh} then 1 else ${idpUsers.otpFailures} + 1 end`,
        otpFailedSince: sql`case when ${fresh} then ${now.toISOString()}::timestamptz else ${idpUsers.otpFailedSince} end`,
      })
      .where(eq(idpUsers.id, id))
      .returning({ failures: idpUsers.otpFailures, since: idpUsers.otpFailedSince });
    return { failures: row?.failures ?? 0, since: row?.since ?? now };
  },

  /** A right code: the account's count starts again. */
  async clearOtpFailures(db: Db, id: string): Promise<void> {
    await db.update(idpUsers).set({ otpFailures: 0, otpFailedSince: null }).where(eq(idpUsers.id, id));
  },

  async setAdmin(db: Db, email: string, isAdmin: boolean): Promise<IdpUser | undefined> {
    const [user] = await db
      .update(idpUsers)
      .set({ isAdmin })
      .where(eq(idpUsers.email, email.trim().toLowerCase()))
      .returning();
    return user;
  },
};

export const DEMO_PASSWORD = 'muntly-demo';
export const DEMO_USERS = [
  { email: 'demo@muntly.test', name: 'Demo User' },
  { email: 'demo2@muntly.test', name: 'Second Demo' },
];
