import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { rows } from '../../db/raw';
import { liabilityAccounts, liabilitySnapshots, liabilityTrees } from '../../db/schema';
import type { Reserves } from '../../../../domain/contracts/liabilities';
import type { Db } from '../../db/client';

export type SnapshotRow = typeof liabilitySnapshots.$inferSelect;
export type TreeRow = typeof liabilityTrees.$inferSelect;
export type TreeSummaryRow = Omit<TreeRow, 'tree' | 'nodes'>;
export type AccountLeavesRow = typeof liabilityAccounts.$inferSelect;

/** Rows per INSERT of the accounts' secrets: well under PostgreSQL's 65,535 parameters. */
const ACCOUNT_ROWS_PER_INSERT = 5000;

const treeSummary = {
  snapshotId: liabilityTrees.snapshotId,
  currency: liabilityTrees.currency,
  rootHash: liabilityTrees.rootHash,
  decimals: liabilityTrees.decimals,
  total: liabilityTrees.total,
  leafCount: liabilityTrees.leafCount,
};

/** SQL for the proof of liabilities. Methods take the database or a transaction, so services compose them. */
export const liabilitiesRepository = {
  /**
   * Takes the publishing lock for the rest of the transaction: `wait` queues behind a snapshot
   * being published (the operator's command); otherwise false when one is (the schedule skips).
   */
  async lockPublishing(db: Db, wait: boolean): Promise<boolean> {
    const key = sql`hashtextextended('liabilities:publish', 0)`;
    if (wait) {
      await rows(db, sql`select pg_advisory_xact_lock(${key})`);
      return true;
    }
    const [row] = await rows<{ locked: boolean }>(db, sql`select pg_try_advisory_xact_lock(${key}) as locked`);
    return row!.locked;
  },

  /** The transaction's own time (PostgreSQL's now() is when it began: the instant of its snapshot). */
  async transactionTime(db: Db): Promise<Date> {
    const [row] = await rows<{ now: Date | string }>(db, sql`select now() as now`);
    return new Date(row!.now);
  },

  async slotTaken(db: Db, slot: number): Promise<boolean> {
    const [row] = await db.select({ id: liabilitySnapshots.id }).from(liabilitySnapshots).where(eq(liabilitySnapshots.slot, slot));
    return row !== undefined;
  },

  async insertSnapshot(db: Db, values: { takenAt: Date; slot: number | null; reserves: Reserves }): Promise<SnapshotRow> {
    const [row] = await db.insert(liabilitySnapshots).values(values).returning();
    return row!;
  },

  async insertTree(db: Db, values: typeof liabilityTrees.$inferInsert): Promise<void> {
    await db.insert(liabilityTrees).values(values);
  },

  async insertAccounts(db: Db, values: (typeof liabilityAccounts.$inferInsert)[]): Promise<void> {
    for (let i = 0; i < values.length; i += ACCOUNT_ROWS_PER_INSERT) await db.insert(liabilityAccounts).values(values.slice(i, i + ACCOUNT_ROWS_PER_INSERT));
  },

  /** Newest first; `before` pages back. */
  snapshots(db: Db, options: { before?: number; limit: number }): Promise<SnapshotRow[]> {
    return db
      .select()
      .from(liabilitySnapshots)
      .where(options.before ? lt(liabilitySnapshots.id, options.before) : undefined)
      .orderBy(desc(liabilitySnapshots.id))
      .limit(options.limit);
  },

  async snapshot(db: Db, id: number): Promise<SnapshotRow | undefined> {
    const [row] = await db.select().from(liabilitySnapshots).where(eq(liabilitySnapshots.id, id));
    return row;
  },

  async latestSnapshot(db: Db): Promise<SnapshotRow | undefined> {
    const [row] = await db.select().from(liabilitySnapshots).orderBy(desc(liabilitySnapshots.id)).limit(1);
    return row;
  },

  /** Root, total and size of every tree of these snapshots (not the trees themselves). */
  treeSummaries(db: Db, snapshotIds: number[]): Promise<TreeSummaryRow[]> {
    if (snapshotIds.length === 0) return Promise.resolve([]);
    return db.select(treeSummary).from(liabilityTrees).where(inArray(liabilityTrees.snapshotId, snapshotIds)).orderBy(asc(liabilityTrees.currency));
  },

  /** The published trees (JSON text) of a snapshot, one currency or all, by currency. */
  trees(db: Db, snapshotId: number, currency?: string): Promise<{ currency: string; tree: string }[]> {
    return db
      .select({ currency: liabilityTrees.currency, tree: liabilityTrees.tree })
      .from(liabilityTrees)
      .where(and(eq(liabilityTrees.snapshotId, snapshotId), currency ? eq(liabilityTrees.currency, currency) : undefined))
      .orderBy(asc(liabilityTrees.currency));
  },

  /**
   * Pieces of a tree's packed levels: `length` bytes at each offset (0-based), in order, in one
   * statement (uncompressed storage: only the pages holding them are read).
   */
  async nodeBytes(db: Db, snapshotId: number, currency: string, offsets: number[], length: number): Promise<Uint8Array[]> {
    if (offsets.length === 0) return [];
    const pieces = sql.join(
      offsets.map((offset, i) => sql`substring(${liabilityTrees.nodes} from ${offset + 1} for ${length}) as ${sql.raw(`n${i}`)}`),
      sql`, `,
    );
    const [row] = await rows<Record<string, Uint8Array>>(
      db,
      sql`select ${pieces} from ${liabilityTrees} where ${liabilityTrees.snapshotId} = ${snapshotId} and ${liabilityTrees.currency} = ${currency}`,
    );
    return offsets.map((_, i) => new Uint8Array(row![`n${i}`]!));
  },

  /** The account's secrets in its newest snapshots (newest first; `before` pages back). */
  accountSnapshots(db: Db, accountId: string, options: { before?: number; limit: number }) {
    return db
      .select({ snapshotId: liabilityAccounts.snapshotId, takenAt: liabilitySnapshots.takenAt, nonce: liabilityAccounts.nonce, leaves: liabilityAccounts.leaves })
      .from(liabilityAccounts)
      .innerJoin(liabilitySnapshots, eq(liabilitySnapshots.id, liabilityAccounts.snapshotId))
      .where(and(eq(liabilityAccounts.accountId, accountId), options.before ? lt(liabilityAccounts.snapshotId, options.before) : undefined))
      .orderBy(desc(liabilityAccounts.snapshotId))
      .limit(options.limit);
  },
};
