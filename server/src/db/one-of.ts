import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * `column in ('a', 'b', …)` for a check constraint, built from the same `as const` list that
 * types the column (`text('status', { enum: LIST })`) and the API's zod enum, so the database
 * cannot drift from the code. The values are constants of the code, quoted as SQL literals.
 */
export function oneOf(column: SQLWrapper, values: readonly string[]): SQL {
  return sql`${column} in (${sql.raw(values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', '))})`;
}
