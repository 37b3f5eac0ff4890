import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { rows } from '../../db/raw';
import { liabilityAccounts, liabilityControl, liabilitySnapshots, liabilityTrees } from '../../db/schema/liabilities';
import type { Reserves } from '#domain/contracts/liabilities';
import type { Db } from '../../db/client';

export type SnapshotRow = typeof liabilitySnapshots.$inferSelect;
export type TreeRow = typeof liabilityTrees.$inferSelect;
export type TreeSummaryRow = Omit<TreeRow, 'tree' | 'nodes' | 'leaves' | 'directory' | 'paddingSeed'>;
export type AccountLeavesRow = typeof liabilityAccounts.$inferSelect;
export type ControlRow = typeof liabilityControl.$inferSelect;

/** Rows per INSERT of the accounts' secrets (a few MB of JSON each). */
const ACCOUNT_ROWS_PER_INSERT = 20000;

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
    const [row] = await db
      .select({ id: liabilitySnapshots.id })
      .from(liabilitySnapshots)
      .where(eq(liabilitySnapshots.slot, slot));
    return row !== undefined;
  },

  async insertSnapshot(
    db: Db,
    values: { takenAt: Date; slot: number | null; reserves: Reserves; format: string },
  ): Promise<SnapshotRow> {
    const [row] = await db.insert(liabilitySnapshots).values(values).returning();
    return row!;
  },

  async insertTree(db: Db, values: typeof liabilityTrees.$inferInsert): Promise<void> {
    await db.insert(liabilityTrees).values(values);
  },

  /** Every account's secrets of a snapshot, a batch per statement as one JSON parameter (a row of parameters each was 20 times slower). */
  async insertAccounts(db: Db, values: (typeof liabilityAccounts.$inferInsert)[]): Promise<void> {
    for (let i = 0; i < values.length; i += ACCOUNT_ROWS_PER_INSERT) {
      const batch = JSON.stringify(
        values.slice(i, i + ACCOUNT_ROWS_PER_INSERT).map((v) => [v.snapshotId, v.accountId, v.nonce, v.leaves]),
      );
      await db.execute(
        sql`insert into ${liabilityAccounts} (snapshot_id, account_id, nonce, leaves)
            select (r->>0)::int, (r->>1)::uuid, r->>2, r->3 from jsonb_array_elements(${batch}::jsonb) r`,
      );
    }
  },

  /**
   * What customers are owed outside their wallets, per owner and currency (issue 32, "Complete"):
   * - payouts whose money sits in the clearing account (waiting for approval, the worker, the
   *   signer or the bank, or broadcast and not yet confirmed): the amount and the network fee held;
   *   the owner is the account that sends, else the order's account, else the order itself;
   * - orders paid and not yet converted, refunded or delivered (the money is in the exchange account);
   * - money nobody has claimed yet (the unmatched account: bank payments and chain outputs), and
   *   payouts the payee's bank sent back, waiting for another IBAN (the returns account).
   * Plus the clearing account's own balance per currency (its sub-accounts' included), which the payouts must add up to.
   * One statement, so that it sees the same instant as the wallet balances read beside it.
   */
  async owedOutsideWallets(db: Db): Promise<
    {
      kind: 'payout' | 'order' | 'unmatched' | 'clearing';
      owner: string;
      account: string | null;
      currency: string;
      amount: bigint;
    }[]
  > {
    const found = await rows<{
      kind: 'payout' | 'order' | 'unmatched' | 'clearing';
      owner: string;
      account: string | null;
      currency: string;
      amount: string;
    }>(
      db,
      sql`select 'payout' as kind, coalesce(la.owner_id::text, o.account_id::text, 'order:' || o.id::text, 'payout:' || p.id::text) as owner,
                 coalesce(la.owner_id, o.account_id)::text as account, p.currency, (sum(p.amount + p.network_fee))::text as amount
            from payouts p
            left join ledger_accounts la on la.id = p.source_account_id and la.owner_id is not null
            left join orders o on o.id = p.order_id
           where p.status in ('awaiting_approval', 'pending', 'submitting', 'submitted', 'broadcast')
           group by 2, 3, 4
          union all
          select 'order', coalesce(o.account_id::text, 'order:' || o.id::text), o.account_id::text, o.currency_from, o.amount_received::text
            from orders o
           where o.status = 'processing' and o.settled_at is null and o.amount_received > 0
          union all
          select case a.system_code when 'payouts' then 'clearing' else 'unmatched' end, a.system_code, null, a.currency, sum(a.balance)::text
            from ledger_accounts a
           where a.system_code in ('unmatched', 'payouts', 'returns')
           group by a.system_code, a.currency
          having sum(a.balance) <> 0`,
    );
    return found.map((r) => ({ ...r, amount: BigInt(r.amount) }));
  },

  async insertControl(db: Db, values: typeof liabilityControl.$inferInsert): Promise<void> {
    await db
      .insert(liabilityControl)
      .values(values)
      .onConflictDoUpdate({
        target: [liabilityControl.snapshotId, liabilityControl.currency, liabilityControl.address],
        set: {
          scheme: values.scheme,
          message: values.message,
          signature: values.signature,
          publicKey: values.publicKey ?? null,
          createdAt: new Date(),
        },
      });
  },

  controls(db: Db, snapshotIds: number[]) {
    if (snapshotIds.length === 0) return Promise.resolve([]);
    return db
      .select()
      .from(liabilityControl)
      .where(inArray(liabilityControl.snapshotId, snapshotIds))
      .orderBy(asc(liabilityControl.currency), asc(liabilityControl.address));
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
    return db
      .select(treeSummary)
      .from(liabilityTrees)
      .where(inArray(liabilityTrees.snapshotId, snapshotIds))
      .orderBy(asc(liabilityTrees.currency));
  },

  /**
   * Pieces of a tree's stored bytes (the packed upper levels, the packed leaves, their directory):
   * `length` bytes at each offset (0-based), in order, in one statement (uncompressed storage:
   * only the pages holding them are read); and the tree's padding seed.
   */
  async treeBytes(
    db: Db,
    snapshotId: number,
    currency: string,
    column: 'nodes' | 'leaves' | 'directory',
    pieces: { offset: number; length: number }[],
  ): Promise<{ pieces: Uint8Array[]; paddingSeed: Uint8Array }> {
    const source = { nodes: liabilityTrees.nodes, leaves: liabilityTrees.leaves, directory: liabilityTrees.directory }[
      column
    ];
    const selected = pieces.map(
      (p, i) => sql`, substring(${source} from ${p.offset + 1} for ${p.length}) as ${sql.raw(`p${i}`)}`,
    );
    const [row] = await rows<Record<string, Uint8Array>>(
      db,
      sql`select ${liabilityTrees.paddingSeed} as seed ${sql.join(selected, sql``)} from ${liabilityTrees} where ${liabilityTrees.snapshotId} = ${snapshotId} and ${liabilityTrees.currency} = ${currency}`,
    );
    return { pieces: pieces.map((_, i) => new Uint8Array(row![`p${i}`]!)), paddingSeed: new Uint8Array(row!.seed!) };
  },

  /** The account's secrets in its newest snapshots (newest first; `before` pages back). */
  accountSnapshots(db: Db, accountId: string, options: { before?: number; limit: number }) {
    return db
      .select({
        snapshotId: liabilityAccounts.snapshotId,
        takenAt: liabilitySnapshots.takenAt,
        nonce: liabilityAccounts.nonce,
        leaves: liabilityAccounts.leaves,
      })
      .from(liabilityAccounts)
      .innerJoin(liabilitySnapshots, eq(liabilitySnapshots.id, liabilityAccounts.snapshotId))
      .where(
        and(
          eq(liabilityAccounts.accountId, accountId),
          options.before ? lt(liabilityAccounts.snapshotId, options.before) : undefined,
        ),
      )
      .orderBy(desc(liabilityAccounts.snapshotId))
      .limit(options.limit);
  },
};
