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
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}
