import type { Db } from './client';
import type { SQL } from 'drizzle-orm';

/**
 * The rows of a raw SQL query, typed by the caller. For the few statements the query builder cannot
 * write (aggregates over several tables, UPDATE … RETURNING an expression); name tables and columns
 * through the table objects (`sql\`select ${orders.id} from ${orders}\``), never in the string.
 * Both drivers (node-postgres and PGlite) answer `{ rows }`.
 */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
