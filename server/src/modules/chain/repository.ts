import { and, asc, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import {
  addressCounters,
  chainAlerts,
  chainBlocks,
  chainHouseTxs,
  chainOutputs,
  houseAddresses,
} from '../../db/schema/chain';
import type { ChainOutputStatus, ChainUnmatchedReason, HouseBranch } from '#domain/chain';
import type { Db } from '../../db/client';

export type HouseAddressRow = typeof houseAddresses.$inferSelect;
export type ChainOutputRow = typeof chainOutputs.$inferSelect;
export type ChainAlertRow = typeof chainAlerts.$inferSelect;

/** What the signer may spend: outputs at house addresses, booked, not spent. */
/** Booked and still the house's coins (a returned output is spent by the signer's payout later). */
const SPENDABLE: ChainOutputStatus[] = ['credited', 'change', 'unmatched', 'assigned', 'returned'];

/** SQL for the house keys' counters and addresses, and the deposit watcher's blocks and outputs. */
export const chainRepository = {
  /**
   * Takes the next index of a currency's counter. Concurrent callers queue on the counter's row
   * (the upsert locks it), so each gets its own index.
   */
  async takeNextIndex(db: Db, currency: string): Promise<number> {
    const [row] = await db
      .insert(addressCounters)
      .values({ currency, nextIndex: 1 })
      .onConflictDoUpdate({
        target: addressCounters.currency,
        set: { nextIndex: sql`${addressCounters.nextIndex} + 1` },
      })
      .returning({ nextIndex: addressCounters.nextIndex });
    return Number(row!.nextIndex) - 1;
  },

  async counter(db: Db, currency: string): Promise<number> {
    const [row] = await db
      .select({ nextIndex: addressCounters.nextIndex })
      .from(addressCounters)
      .where(eq(addressCounters.currency, currency));
    return row ? Number(row.nextIndex) : 0;
  },

  async insertHouseAddress(
    db: Db,
    row: { address: string; currency: string; branch: HouseBranch; derivationIndex: number },
  ): Promise<void> {
    await db.insert(houseAddresses).values(row).onConflictDoNothing();
  },

  async houseAddressesIn(db: Db, currency: string, addresses: string[]): Promise<HouseAddressRow[]> {
    if (addresses.length === 0) return [];
    return db
      .select()
      .from(houseAddresses)
      .where(and(eq(houseAddresses.currency, currency), inArray(houseAddresses.address, addresses)));
  },

  /** Whether any XRP house address (account:tag) is of this account. */
  async hasXrpAccount(db: Db, account: string): Promise<boolean> {
    const rows = await db
      .select({ address: houseAddresses.address })
      .from(houseAddresses)
      .where(and(eq(houseAddresses.currency, 'XRP'), sql`${houseAddresses.address} like ${`${account}:%`}`))
      .limit(1);
    return rows.length > 0;
  },

  async lastBlocks(db: Db, currency: string, limit: number): Promise<{ height: number; hash: string }[]> {
    return db
      .select({ height: chainBlocks.height, hash: chainBlocks.hash })
      .from(chainBlocks)
      .where(eq(chainBlocks.currency, currency))
      .orderBy(desc(chainBlocks.height))
      .limit(limit);
  },

  async blockHashAt(db: Db, currency: string, height: number): Promise<string | null> {
    const [row] = await db
      .select({ hash: chainBlocks.hash })
      .from(chainBlocks)
      .where(and(eq(chainBlocks.currency, currency), eq(chainBlocks.height, height)));
    return row?.hash ?? null;
  },

  async insertBlock(db: Db, row: { currency: string; height: number; hash: string }): Promise<void> {
    await db
      .insert(chainBlocks)
      .values(row)
      .onConflictDoUpdate({
        target: [chainBlocks.currency, chainBlocks.height],
        set: { hash: row.hash, scannedAt: new Date() },
      });
  },

  /** Forgets the blocks above `height` (a reorg) and the old ones beyond what a reorg can reach. */
  async dropBlocksAbove(db: Db, currency: string, height: number): Promise<void> {
    await db.delete(chainBlocks).where(and(eq(chainBlocks.currency, currency), gt(chainBlocks.height, height)));
  },
  async pruneBlocks(db: Db, currency: string, belowHeight: number): Promise<void> {
    await db
      .delete(chainBlocks)
      .where(and(eq(chainBlocks.currency, currency), sql`${chainBlocks.height} < ${belowHeight}`));
  },

  async insertOutput(
    db: Db,
    row: {
      currency: string;
      txid: string;
      vout: number;
      address: string;
      amount: bigint;
      height: number;
      blockHash: string;
      status: ChainOutputStatus;
    },
  ): Promise<boolean> {
    const inserted = await db
      .insert(chainOutputs)
      .values(row)
      .onConflictDoNothing()
      .returning({ txid: chainOutputs.txid });
    return inserted.length > 0;
  },

  /** The same output seen again in another block (a reorg that kept its transaction). */
  async moveOutput(
    db: Db,
    key: { currency: string; txid: string; vout: number },
    block: { height: number; blockHash: string },
  ): Promise<void> {
    await db
      .update(chainOutputs)
      .set({ ...block, updatedAt: new Date() })
      .where(
        and(eq(chainOutputs.currency, key.currency), eq(chainOutputs.txid, key.txid), eq(chainOutputs.vout, key.vout)),
      );
  },

  async lockOutput(db: Db, key: { currency: string; txid: string; vout: number }): Promise<ChainOutputRow | undefined> {
    const [row] = await db
      .select()
      .from(chainOutputs)
      .where(
        and(eq(chainOutputs.currency, key.currency), eq(chainOutputs.txid, key.txid), eq(chainOutputs.vout, key.vout)),
      )
      .for('update');
    return row;
  },

  async updateOutput(
    db: Db,
    key: { currency: string; txid: string; vout: number },
    set: Partial<{
      status: ChainOutputStatus;
      unmatchedReason: ChainUnmatchedReason | null;
      creditedTo: string | null;
      spentBy: string | null;
    }>,
  ): Promise<void> {
    await db
      .update(chainOutputs)
      .set({ ...set, updatedAt: new Date() })
      .where(
        and(eq(chainOutputs.currency, key.currency), eq(chainOutputs.txid, key.txid), eq(chainOutputs.vout, key.vout)),
      );
  },

  async outputsInBlocksAbove(db: Db, currency: string, height: number): Promise<ChainOutputRow[]> {
    return db
      .select()
      .from(chainOutputs)
      .where(
        and(
          eq(chainOutputs.currency, currency),
          gt(chainOutputs.height, height),
          inArray(chainOutputs.status, ['confirming', ...SPENDABLE]),
        ),
      );
  },

  async confirming(db: Db, currency: string, maxHeight: number): Promise<ChainOutputRow[]> {
    return db
      .select()
      .from(chainOutputs)
      .where(
        and(
          eq(chainOutputs.currency, currency),
          eq(chainOutputs.status, 'confirming'),
          sql`${chainOutputs.height} <= ${maxHeight}`,
        ),
      )
      .orderBy(asc(chainOutputs.height));
  },

  async outputsAt(db: Db, currency: string, addresses: string[]): Promise<ChainOutputRow[]> {
    if (addresses.length === 0) return [];
    return db
      .select()
      .from(chainOutputs)
      .where(and(eq(chainOutputs.currency, currency), inArray(chainOutputs.address, addresses)))
      .orderBy(asc(chainOutputs.height));
  },

  async spendable(
    db: Db,
    currency: string,
  ): Promise<(ChainOutputRow & { branch: HouseBranch; derivationIndex: number })[]> {
    return db
      .select({
        currency: chainOutputs.currency,
        txid: chainOutputs.txid,
        vout: chainOutputs.vout,
        address: chainOutputs.address,
        amount: chainOutputs.amount,
        height: chainOutputs.height,
        blockHash: chainOutputs.blockHash,
        status: chainOutputs.status,
        unmatchedReason: chainOutputs.unmatchedReason,
        creditedTo: chainOutputs.creditedTo,
        spentBy: chainOutputs.spentBy,
        spentHeight: chainOutputs.spentHeight,
        createdAt: chainOutputs.createdAt,
        updatedAt: chainOutputs.updatedAt,
        branch: houseAddresses.branch,
        derivationIndex: houseAddresses.derivationIndex,
      })
      .from(chainOutputs)
      .innerJoin(houseAddresses, eq(houseAddresses.address, chainOutputs.address))
      .where(
        and(eq(chainOutputs.currency, currency), isNull(chainOutputs.spentBy), inArray(chainOutputs.status, SPENDABLE)),
      )
      .orderBy(asc(chainOutputs.height), asc(chainOutputs.txid), asc(chainOutputs.vout));
  },

  /** Of these outpoints, the ones that are house outputs (one query: a block's inputs are mostly not the house's). */
  async knownOutpoints(
    db: Db,
    currency: string,
    outpoints: { txid: string; vout: number }[],
  ): Promise<{ txid: string; vout: number }[]> {
    if (outpoints.length === 0) return [];
    const rows = await db
      .select({ txid: chainOutputs.txid, vout: chainOutputs.vout })
      .from(chainOutputs)
      .where(
        and(
          eq(chainOutputs.currency, currency),
          inArray(chainOutputs.txid, [...new Set(outpoints.map((o) => o.txid))]),
        ),
      );
    const wanted = new Set(outpoints.map((o) => `${o.txid}:${o.vout}`));
    return rows.filter((row) => wanted.has(`${row.txid}:${row.vout}`));
  },

  async markSpent(
    db: Db,
    currency: string,
    outpoints: { txid: string; vout: number }[],
    spentBy: string,
    height?: number,
  ): Promise<void> {
    for (const { txid, vout } of outpoints) {
      await db
        .update(chainOutputs)
        .set({ spentBy, ...(height === undefined ? {} : { spentHeight: height }), updatedAt: new Date() })
        .where(and(eq(chainOutputs.currency, currency), eq(chainOutputs.txid, txid), eq(chainOutputs.vout, vout)));
    }
  },

  /** The lowest block the watcher saw this transaction in (it spends house outputs), or null. */
  async minedHeight(db: Db, currency: string, txid: string): Promise<number | null> {
    const [row] = await db
      .select({ height: sql<number | null>`min(${chainOutputs.spentHeight})` })
      .from(chainOutputs)
      .where(and(eq(chainOutputs.currency, currency), eq(chainOutputs.spentBy, txid)));
    return row?.height === null || row?.height === undefined ? null : Number(row.height);
  },

  /** Account chains: a transaction from a house address seen mined (again, after a reorg: its new height). */
  async insertHouseTx(
    db: Db,
    row: { currency: string; txid: string; height: number; fee: bigint; failed: boolean },
  ): Promise<void> {
    await db
      .insert(chainHouseTxs)
      .values(row)
      .onConflictDoUpdate({
        target: [chainHouseTxs.currency, chainHouseTxs.txid],
        set: { height: row.height, fee: row.fee, failed: row.failed },
      });
  },

  async houseTx(
    db: Db,
    currency: string,
    txid: string,
  ): Promise<{ height: number; fee: bigint; failed: boolean } | undefined> {
    const [row] = await db
      .select({ height: chainHouseTxs.height, fee: chainHouseTxs.fee, failed: chainHouseTxs.failed })
      .from(chainHouseTxs)
      .where(and(eq(chainHouseTxs.currency, currency), eq(chainHouseTxs.txid, txid)));
    return row;
  },

  async dropHouseTxsAbove(db: Db, currency: string, height: number): Promise<void> {
    await db.delete(chainHouseTxs).where(and(eq(chainHouseTxs.currency, currency), gt(chainHouseTxs.height, height)));
  },

  /** The blocks above `height` left the chain: what they spent is spent by no block (still by its transaction). */
  /**
   * An account chain's sweep from `address` was mined at `height`: the outputs that address held
   * in earlier blocks are spent by it (they are no longer the signer's to sweep), so the list the
   * signer reads stays as long as what waits to be swept, not every deposit ever made. One that
   * arrived after the sweep was signed but before its block stays at the address, uncounted here
   * and counted by the reconciliation (balances), until the next deposit there is swept with it.
   */
  async markSwept(db: Db, currency: string, address: string, spentBy: string, height: number): Promise<void> {
    await db
      .update(chainOutputs)
      .set({ spentBy, spentHeight: height, updatedAt: new Date() })
      .where(
        and(
          eq(chainOutputs.currency, currency),
          eq(chainOutputs.address, address),
          isNull(chainOutputs.spentBy),
          lt(chainOutputs.height, height),
          inArray(chainOutputs.status, ['confirming', 'credited', 'assigned', 'unmatched']),
        ),
      );
  },

  async unspendAbove(db: Db, currency: string, height: number): Promise<void> {
    await db
      .update(chainOutputs)
      .set({ spentHeight: null, updatedAt: new Date() })
      .where(and(eq(chainOutputs.currency, currency), gt(chainOutputs.spentHeight, height)));
  },

  async unspentTotal(db: Db, currency: string): Promise<bigint> {
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${chainOutputs.amount}), 0)::text` })
      .from(chainOutputs)
      .where(
        and(eq(chainOutputs.currency, currency), isNull(chainOutputs.spentBy), inArray(chainOutputs.status, SPENDABLE)),
      );
    return BigInt(row?.total ?? '0');
  },

  async confirmingTotal(db: Db, currency: string): Promise<bigint> {
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${chainOutputs.amount}), 0)::text` })
      .from(chainOutputs)
      .where(and(eq(chainOutputs.currency, currency), eq(chainOutputs.status, 'confirming')));
    return BigInt(row?.total ?? '0');
  },

  /** The queue, oldest first. */
  unmatched(db: Db, limit: number): Promise<ChainOutputRow[]> {
    return db
      .select()
      .from(chainOutputs)
      .where(eq(chainOutputs.status, 'unmatched'))
      .orderBy(asc(chainOutputs.createdAt))
      .limit(limit);
  },

  async countOpen(db: Db): Promise<{ unmatched: number; alerts: number }> {
    const [outputs] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(chainOutputs)
      .where(eq(chainOutputs.status, 'unmatched'));
    const [alerts] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(chainAlerts)
      .where(isNull(chainAlerts.resolvedAt));
    return { unmatched: Number(outputs?.n ?? 0), alerts: Number(alerts?.n ?? 0) };
  },

  async insertAlert(
    db: Db,
    row: { currency: string; kind: ChainAlertRow['kind']; detail: Record<string, unknown> },
  ): Promise<ChainAlertRow> {
    const [inserted] = await db.insert(chainAlerts).values(row).returning();
    return inserted!;
  },

  async openAlerts(db: Db): Promise<ChainAlertRow[]> {
    return db.select().from(chainAlerts).where(isNull(chainAlerts.resolvedAt)).orderBy(asc(chainAlerts.createdAt));
  },

  async resolveAlert(db: Db, id: string, by: string): Promise<ChainAlertRow | undefined> {
    const [row] = await db
      .update(chainAlerts)
      .set({ resolvedAt: new Date(), resolvedBy: by })
      .where(and(eq(chainAlerts.id, id), isNull(chainAlerts.resolvedAt)))
      .returning();
    return row;
  },
};
