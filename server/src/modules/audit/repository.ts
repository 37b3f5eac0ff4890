import { and, asc, desc, eq, gt, gte, inArray, like, lt, lte, sql, type SQL } from 'drizzle-orm';
import { rows } from '../../db/raw';
import { auditHead, auditLog } from '../../db/schema/audit';
import type { Db, Tx } from '../../db/client';

export type AuditRow = typeof auditLog.$inferSelect;

/** Which rows a list or an export shows (service.ts turns the API's query into this). */
export type AuditRowFilter = {
  actor?: string;
  action?: string;
  actionGroup?: string;
  target?: string;
  from?: Date;
  until?: Date;
};

function matching(filter: AuditRowFilter): SQL | undefined {
  return and(
    filter.actor !== undefined ? eq(auditLog.actor, filter.actor) : undefined,
    filter.action !== undefined ? eq(auditLog.action, filter.action) : undefined,
    // A group (faucet.) is a prefix; `_` is a LIKE wildcard and action codes contain it.
    filter.actionGroup !== undefined ? like(auditLog.action, `${filter.actionGroup.replace(/_/g, '\\_')}%`) : undefined,
    filter.target !== undefined ? eq(auditLog.target, filter.target) : undefined,
    filter.from ? gte(auditLog.at, filter.from) : undefined,
    filter.until ? lt(auditLog.at, filter.until) : undefined,
  );
}

/** SQL for the audit trail. Writing is service.ts's `recordAudit` only: it keeps the chain. */
export const auditRepository = {
  /** The rows that issued an identity (a token, an admin grant) to one of these subjects, oldest first. */
  async issuedTo(db: Db, targets: string[]): Promise<AuditRow[]> {
    return db
      .select()
      .from(auditLog)
      .where(and(inArray(auditLog.action, ['dev.token', 'admin.grant']), inArray(auditLog.target, targets)))
      .orderBy(asc(auditLog.id));
  },

  /** The chain's last row, locked until the transaction ends: writers chain one at a time. */
  async lockHead(tx: Tx): Promise<{ lastId: number; lastHash: string | null }> {
    const [head] = await tx
      .select({ lastId: auditHead.lastId, lastHash: auditHead.lastHash })
      .from(auditHead)
      .where(eq(auditHead.id, 1))
      .for('update');
    if (!head) throw new Error('audit_head has no row: migration 0021 creates it');
    return head;
  },

  async head(db: Db): Promise<{ lastId: number; lastHash: string | null }> {
    const [head] = await db
      .select({ lastId: auditHead.lastId, lastHash: auditHead.lastHash })
      .from(auditHead)
      .where(eq(auditHead.id, 1));
    return head ?? { lastId: 0, lastHash: null };
  },

  /**
   * The database clock, to the millisecond, as ISO 8601 UTC: read after the head's lock is held,
   * so each row's time is at or after the row before it.
   */
  async now(tx: Tx): Promise<string> {
    const [row] = await rows<{ at: string }>(
      tx,
      sql`select to_char(date_trunc('milliseconds', clock_timestamp()) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at`,
    );
    return row!.at;
  },

  /** Appends a row and moves the head onto it (the head's trigger allows one row forward only). */
  async append(tx: Tx, row: AuditRow): Promise<void> {
    await tx.insert(auditLog).values(row);
    await tx.update(auditHead).set({ lastId: row.id, lastHash: row.hash }).where(eq(auditHead.id, 1));
  },

  /** Appends the rows (ids following the head's) and moves the head onto each in turn. */
  async appendMany(tx: Tx, rows: AuditRow[]): Promise<void> {
    await tx.insert(auditLog).values(rows);
    for (const row of rows)
      await tx.update(auditHead).set({ lastId: row.id, lastHash: row.hash }).where(eq(auditHead.id, 1));
  },

  /** Newest first; `before`: only rows older than that id (the previous page's last). */
  page(db: Db, filter: AuditRowFilter, options: { before?: number; limit: number }): Promise<AuditRow[]> {
    return db
      .select()
      .from(auditLog)
      .where(and(matching(filter), options.before !== undefined ? lt(auditLog.id, options.before) : undefined))
      .orderBy(desc(auditLog.id))
      .limit(options.limit);
  },

  /** The rows about any of these targets, in chain order, the newest `limit` of them. */
  async ofTargets(db: Db, targets: string[], limit: number): Promise<AuditRow[]> {
    if (targets.length === 0) return [];
    const newest = await db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.target, targets))
      .orderBy(desc(auditLog.id))
      .limit(limit);
    return newest.reverse();
  },

  /** In chain order: rows after the id `after`, up to `upTo` when given. */
  chainPage(
    db: Db,
    filter: AuditRowFilter,
    options: { after: number; upTo?: number; limit: number },
  ): Promise<AuditRow[]> {
    return db
      .select()
      .from(auditLog)
      .where(
        and(
          matching(filter),
          gt(auditLog.id, options.after),
          options.upTo !== undefined ? lte(auditLog.id, options.upTo) : undefined,
        ),
      )
      .orderBy(asc(auditLog.id))
      .limit(options.limit);
  },
};
