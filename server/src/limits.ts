import { createHash } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import { secondsToWait } from '#domain/errors';
import { rows } from './db/raw';
import { limitCounters } from './db/schema/limits';
import { RateLimited } from './errors';
import type { Db } from './db/client';

/**
 * The limits that protect a person — orders and lookups per email, support messages per sender,
 * verification requests and fee questions per account, security links per link — counted in the
 * database every API replica shares. Kept in each process's memory, a stranger behind a load
 * balancer with N replicas would get N times the limit against someone else's inbox.
 *
 * A limit is `max` uses per window; a window starts with the first use after the last one ended
 * (so at most `max` in any window, and at most 2 × `max` across the boundary of two). Taking a
 * use is one statement — INSERT … ON CONFLICT DO UPDATE … WHERE count < max RETURNING, the SQL
 * function take_limit (migration 0042) — so two
 * replicas at once can never both take the last one: the row's lock orders them. A refused use
 * counts for nothing. Expired windows are reset by their next use and deleted by `sweepLimits`
 * (the retention job). Limits per client address stay in memory (@fastify/rate-limit): see the
 * docs/security.md, "Limits".
 */
export type Limit = { name: string; max: number; windowMs: number };

export type Taken = { ok: true; count: number; release(): Promise<void> } | { ok: false; retryAfterSeconds: number };

/** The row's key: the limit's name and its subject, hashed (the table holds no email or id). */
export const limitKey = (limit: Pick<Limit, 'name'>, subject: string) =>
  createHash('sha256').update(`${limit.name}\0${subject}`).digest('hex');

/**
 * Takes one use of `limit` for `subject`, or answers how long to wait. `now`: the database's
 * clock unless given (tests). `release` gives the use back (a request that turned out not to
 * count, as an order that was not placed).
 */
export async function takeLimit(db: Db, limit: Limit, subject: string, now?: Date): Promise<Taken> {
  const key = limitKey(limit, subject);
  const at = now ? sql`${now.toISOString()}::timestamptz` : sql`clock_timestamp()`;
  // take_limit (migration 0042) is the one definition of a use: place_anonymous_order takes one too.
  const [taken] = await rows<{ count: number | null }>(
    db,
    sql`select take_limit(${key}, ${limit.max}, ${`${limit.windowMs} milliseconds`}::interval, ${at}) as count`,
  );
  if (taken?.count != null && limit.max >= 1) {
    return {
      ok: true,
      count: Number(taken.count),
      release: async () => {
        await db.execute(
          sql`update ${limitCounters} set count = greatest(count - 1, 0) where key = ${key} and window_ends_at > ${at}`,
        );
      },
    };
  }
  const [row] = await rows<{ ms: number }>(
    db,
    sql`select greatest(extract(epoch from (window_ends_at - ${at})) * 1000, 0)::float8 as ms from ${limitCounters} where key = ${key}`,
  );
  return { ok: false, retryAfterSeconds: secondsToWait(Math.ceil(Number(row?.ms ?? limit.windowMs))) };
}

/** takeLimit for every limit given, refusing with 429 try_again_soon (the longest wait) when any is used up; the uses taken are given back then. */
export async function takeLimits(
  db: Db,
  wanted: { limit: Limit; subject: string }[],
  now?: Date,
): Promise<{ release(): Promise<void> }> {
  const taken: Taken[] = [];
  for (const { limit, subject } of wanted) taken.push(await takeLimit(db, limit, subject, now));
  const granted = taken.filter((t): t is Extract<Taken, { ok: true }> => t.ok);
  const release = async () => {
    for (const t of granted) await t.release();
  };
  const refused = taken.filter((t): t is Extract<Taken, { ok: false }> => !t.ok);
  if (refused.length) {
    await release();
    throw new RateLimited(Math.max(...refused.map((t) => t.retryAfterSeconds)));
  }
  return { release };
}

/** Deletes the counters whose window has ended (the retention job; a new use would reset them anyway). */
export async function sweepLimits(db: Db, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(limitCounters)
    .where(lt(limitCounters.windowEndsAt, now))
    .returning({ key: limitCounters.key });
  return deleted.length;
}
