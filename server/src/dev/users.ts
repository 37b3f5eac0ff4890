import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { idpUsers } from '../db/schema';
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
      .values({ email: input.email.trim().toLowerCase(), name: input.name.trim(), passwordHash: await hashPassword(input.password) })
      .onConflictDoNothing()
      .returning();
    return user;
  },
  async ensure(db: Db, input: { email: string; name: string; password: string }): Promise<IdpUser> {
    return (await this.findByEmail(db, input.email)) ?? (await this.create(db, input)) ?? (await this.findByEmail(db, input.email))!;
  },
  /** A new one-time-password secret, not asked at login until its first code confirms it. */
  async startTotp(db: Db, id: string, secret: string): Promise<void> {
    await db.update(idpUsers).set({ totpSecret: secret, totpConfirmedAt: null, totpLastStep: null }).where(eq(idpUsers.id, id));
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

  async setAdmin(db: Db, email: string, isAdmin: boolean): Promise<IdpUser | undefined> {
    const [user] = await db.update(idpUsers).set({ isAdmin }).where(eq(idpUsers.email, email.trim().toLowerCase())).returning();
    return user;
  },
};

export const DEMO_PASSWORD = 'muntly-demo';
export const DEMO_USERS = [
  { email: 'demo@muntly.test', name: 'Demo User' },
  { email: 'demo2@muntly.test', name: 'Second Demo' },
];
