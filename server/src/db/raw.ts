import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client';

/**
 * The rows of a raw SQL query, typed by the caller. For the few statements the query builder cannot
 * write (aggregates over several tables, UPDATE … RETURNING an expression); name tables and columns
 * through the table objects (`sql\`select ${orders.id} from ${orders}\``), never in the string.
 * Both drivers (node-postgres and PGlite) answer `{ rows }`.
 */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Takes PostgreSQL's transaction-scoped advisory lock on a text key (hashed to 64 bits): held
 * until the transaction ends, by one transaction at a time. For rules that count rows and then
 * write one (a cap, a limit), so that two requests at once cannot both find room. Callers that
 * take several keys take them in sorted order, so two of them never wait on each other.
 */
export async function lockKey(db: Db, key: string): Promise<void> {
  await lockKeys(db, [key]);
}

/** The keys this transaction already holds: a lock is held until the end, so taking it again is a wasted round trip. */
const held = new WeakMap<Db, Set<string>>();

/** lockKey for several keys, in one statement and in sorted order (so two callers never wait on each other). */
export async function lockKeys(db: Db, keys: readonly string[]): Promise<void> {
  const mine = held.get(db) ?? new Set<string>();
  const wanted = [...new Set(keys)].filter((key) => !mine.has(key)).sort();
  if (wanted.length === 0) return;
  const list = sql.join(
    wanted.map((key) => sql`${key}`),
    sql`, `,
  );
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(key, 0)) from (select unnest(array[${list}]::text[]) as key order by 1) as wanted`,
  );
  // Outside a transaction the lock ends with the statement: nothing is held to remember.
  if (!('rollback' in db)) return;
  for (const key of wanted) mine.add(key);
  held.set(db, mine);
}
