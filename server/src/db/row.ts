import { getTableColumns, is, sql, SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * The SELECT list of one row for `insert(table).select(...)` (an INSERT that can be made
 * conditional, or fed from a CTE, within one statement). Drizzle wants every column, in the
 * table's order: the given expressions, cast to their column's type (a placeholder in a SELECT
 * list has no type of its own), and for every other column its default, or null.
 */
export function rowOf<T extends PgTable>(
  table: T,
  values: Partial<Record<keyof T['_']['columns'], SQLWrapper>>,
): Record<keyof T['_']['columns'], SQL.Aliased> {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      const type = sql.raw(column.getSQLType());
      const given = values[key as keyof T['_']['columns']];
      const value = given
        ? sql`(${given})::${type}`
        : is(column.default, SQL)
          ? column.default
          : column.default !== undefined
            ? sql`${column.default}::${type}`
            : sql`null::${type}`;
      return [key, sql`${value}`.as(column.name)];
    }),
  ) as Record<keyof T['_']['columns'], SQL.Aliased>;
}
