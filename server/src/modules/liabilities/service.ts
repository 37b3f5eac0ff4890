import { hash, randomBytes } from 'node:crypto';
import { bytesToHex } from '@noble/hashes/utils.js';
import { decimalsOf } from '../../../../domain/currencies';
import { DomainError } from '../../../../domain/errors';
import {
  buildTree,
  EMPTY_PUBLISHED,
  LIABILITIES_FORMAT,
  NONCE_BYTES,
  PACKED_NODE_BYTES,
  packLevels,
  pathOffsets,
  publishTreeJson,
  rootOf,
  unpackNode,
  type Digest,
} from '../../../../domain/liabilities';
import { minorToDecimal } from '../../../../domain/money';
import { recordAudit } from '../audit/service';
import { DERIVED_CURRENCIES, type Chain, type Xpubs } from '../chain/service';
import { allUserBalances } from '../ledger/service';
import { receivingAddresses } from '../orders/service';
import { allReceptionAddresses } from '../wallet/addresses';
import { liabilitiesRepository as repo, type SnapshotRow, type TreeSummaryRow } from './repository';
import type { MyProofResponse, Reserves, SnapshotSummary, SnapshotsResponse } from '../../../../domain/contracts/liabilities';
import type { Db } from '../../db/client';

/**
 * Proof of liabilities (issue 20; the tree and its checks are domain/liabilities.ts).
 *
 * Invariants:
 * - a snapshot is read in one REPEATABLE READ transaction: every user balance, the house's addresses
 *   and (locally) the simulated chain's balances of them are read at one instant, so each root's
 *   total is, to the minor unit, what the ledger says users held then (`ledger:verify` prints the
 *   same totals);
 * - snapshots are published one at a time, in the order of their instants (a transaction-scoped
 *   advisory lock), each with its `liabilities.publish` row in the audit trail; the schedule
 *   publishes at most one per LIABILITIES_INTERVAL_MS period, whichever replica gets there first
 *   (a unique index on the period);
 * - the published trees name no account: an account's nonce and leaf positions are stored apart
 *   and shown only to that account (GET /api/wallet/proof);
 * - snapshots are never changed after publishing.
 */
export type LiabilitiesDeps = { chain: Chain; xpubs: Xpubs };

/** Who publishes on the schedule, in the audit trail (an operator's publish names the operator). */
export const SCHEDULE_ACTOR = 'liabilities-schedule';

/** Node's SHA-256 for building trees: the same bytes as the browser's @noble/hashes, faster. */
export const nodeDigest: Digest = (data) => hash('sha256', data, 'buffer');

const decimals = (currency: string) => decimalsOf(currency) ?? 0;
export const snapshotFile = (id: number) => `/proof/${id}.json`;
export const treeFile = (id: number, currency: string) => `/proof/${id}/${currency}.json`;

/** The house's addresses per currency that has them, and what the chain says they hold (when it says). */
async function readReserves(db: Db, deps: LiabilitiesDeps): Promise<Reserves> {
  const reception = await allReceptionAddresses(db);
  const receiving = await receivingAddresses(db);
  const currencies: Reserves['currencies'] = [];
  for (const currency of DERIVED_CURRENCIES) {
    // XRP users share one account, told apart by destination tags: the reserve is the account.
    const addresses: { address: string; branch: 'users' | 'orders' | 'account' }[] =
      currency === 'XRP'
        ? [{ address: deps.xpubs.XRP, branch: 'account' }]
        : [
            ...reception.filter((a) => a.currency === currency).map((a) => ({ address: a.address, branch: 'users' as const })),
            ...receiving.filter((a) => a.currency === currency).map((a) => ({ address: a.address, branch: 'orders' as const })),
          ];
    const balances = await deps.chain.balances(
      db,
      currency,
      addresses.map((a) => a.address),
    );
    const shown = (minor: bigint) => minorToDecimal(minor, decimals(currency));
    currencies.push({
      currency,
      addresses: addresses.map((a) => ({ ...a, balance: balances ? shown(balances.get(a.address) ?? 0n) : null })),
      held: balances ? shown([...balances.values()].reduce((sum, b) => sum + b, 0n)) : null,
    });
  }
  return { source: deps.chain.name, currencies };
}

function summary(snapshot: SnapshotRow, trees: TreeSummaryRow[]): SnapshotSummary {
  const reserves = snapshot.reserves as Reserves;
  return {
    snapshotId: snapshot.id,
    takenAt: snapshot.takenAt.toISOString(),
    file: snapshotFile(snapshot.id),
    currencies: trees
      .filter((t) => t.snapshotId === snapshot.id)
      .map((t) => ({
        currency: t.currency,
        // The decimals it was published with (ether was in gwei before migration 0033), not today's.
        decimals: t.decimals,
        rootHash: t.rootHash,
        total: minorToDecimal(BigInt(t.total), t.decimals),
        leafCount: t.leafCount,
        held: reserves.currencies.find((c) => c.currency === t.currency)?.held ?? null,
        file: treeFile(snapshot.id, t.currency),
      })),
  };
}

const uniqueViolation = (error: unknown): boolean => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) if ((e as { code?: string }).code === '23505') return true;
  return false;
};

/** What a snapshot is made of, read in one REPEATABLE READ transaction: one instant of the ledger. */
type SnapshotRead = { takenAt: Date; balances: { ownerId: string; currency: string; balance: bigint }[]; reserves: Reserves };

/** Answer of one attempt to publish: a snapshot taken after this read was published meanwhile. */
const OVERTAKEN = Symbol('overtaken');

/**
 * Takes and publishes a snapshot. The operator's command waits for one being published and then
 * publishes its own; the schedule (`intervalMs`) publishes only when its period has none yet, and
 * answers null otherwise.
 *
 * Two transactions: the read (every balance, the house's addresses and what the chain holds at one
 * instant, REPEATABLE READ) and the publishing (trees, secrets and the audit row, READ COMMITTED).
 * The audit trail's head is locked only for the publishing's last moment, and writers that
 * chained rows while the trees were built are seen: in the read's snapshot the head would be
 * stale, and locking it there fails (or would hold every audit writer for the whole build).
 */
export async function publishSnapshot(db: Db, deps: LiabilitiesDeps, options: { intervalMs?: number; actor?: string } = {}): Promise<SnapshotSummary | null> {
  const scheduled = options.intervalMs !== undefined;
  const slotOf = (at: Date) => (scheduled ? Math.floor(at.getTime() / options.intervalMs!) : null);
  // The schedule asks every minute on every replica: a period already published costs one lookup, not a read of the ledger.
  if (scheduled && (await repo.slotTaken(db, slotOf(await repo.transactionTime(db))!))) return null;
  for (;;) {
    const read: SnapshotRead = await db.transaction(async (tx) => ({ takenAt: await repo.transactionTime(tx), balances: await allUserBalances(tx), reserves: await readReserves(tx, deps) }), {
      isolationLevel: 'repeatable read',
    });
    try {
      const published = await db.transaction(async (tx) => {
        if (!(await repo.lockPublishing(tx, !scheduled))) return null;
        // Under the lock, snapshots are published in the order of their instants.
        const newest = await repo.latestSnapshot(tx);
        if (newest && newest.takenAt.getTime() >= read.takenAt.getTime()) return scheduled ? null : OVERTAKEN;
        const slot = slotOf(read.takenAt);
        if (slot !== null && (await repo.slotTaken(tx, slot))) return null;
        return publishRead(tx, read, { slot, actor: options.actor ?? SCHEDULE_ACTOR });
      });
      // Another operator's snapshot, read after ours, was published first: ours would be older than the latest.
      if (published !== OVERTAKEN) return published;
    } catch (error) {
      // Another replica published this period between our look and our insert.
      if (scheduled && uniqueViolation(error)) return null;
      throw error;
    }
  }
}

/** Builds, stores and records the snapshot of one read, inside the publishing transaction. */
async function publishRead(tx: Db, read: SnapshotRead, options: { slot: number | null; actor: string }): Promise<SnapshotSummary> {
  const nonces = new Map<string, Buffer>();
  const nonceOf = (account: string) => nonces.get(account) ?? nonces.set(account, randomBytes(NONCE_BYTES)).get(account)!;
  const byCurrency = new Map<string, { account: string; balance: bigint; nonce: Uint8Array }[]>();
  for (const b of read.balances) {
    const list = byCurrency.get(b.currency) ?? byCurrency.set(b.currency, []).get(b.currency)!;
    list.push({ account: b.ownerId, balance: b.balance, nonce: nonceOf(b.ownerId) });
  }
  const snapshot = await repo.insertSnapshot(tx, { takenAt: read.takenAt, slot: options.slot, reserves: read.reserves });
  // One currency at a time, stored as soon as it is built: a large ledger's trees are never all in memory at once.
  const leaves = new Map<string, Record<string, number[]>>();
  for (const [currency, accounts] of byCurrency) {
    const built = buildTree(currency, accounts, { digest: nodeDigest });
    for (const [account, own] of built.leavesOf) {
      const mine = leaves.get(account) ?? leaves.set(account, {}).get(account)!;
      mine[currency] = own.map((leaf) => leaf.index);
    }
    const root = rootOf(built.levels);
    const places = decimals(currency);
    const tree = publishTreeJson(built, places);
    const nodes = packLevels(built.levels);
    await repo.insertTree(tx, { snapshotId: snapshot.id, currency, rootHash: bytesToHex(root.hash), total: root.sum.toString(), decimals: places, leafCount: built.levels[0]!.length, tree, nodes });
  }
  await repo.insertAccounts(
    tx,
    [...leaves].map(([accountId, own]) => ({ snapshotId: snapshot.id, accountId, nonce: nonces.get(accountId)!.toString('hex'), leaves: own })),
  );
  const published = summary(snapshot, await repo.treeSummaries(tx, [snapshot.id]));
  // Public figures only (what the published file says): no account, nonce or balance of anyone.
  await recordAudit(tx, {
    actor: options.actor,
    action: 'liabilities.publish',
    target: String(snapshot.id),
    after: { takenAt: published.takenAt, roots: published.currencies.map((c) => ({ currency: c.currency, total: c.total, rootHash: c.rootHash, leafCount: c.leafCount })) },
  });
  return published;
}

/** GET /api/liabilities: the snapshots, newest first, with their roots and what the house held. */
export async function listSnapshots(db: Db, options: { before?: number; limit: number }): Promise<SnapshotsResponse> {
  const rows = await repo.snapshots(db, { before: options.before, limit: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  const trees = await repo.treeSummaries(
    db,
    page.map((s) => s.id),
  );
  return { snapshots: page.map((s) => summary(s, trees)), next: rows.length > options.limit ? page[page.length - 1]!.id : null };
}

/**
 * The published snapshot as JSON text (domain/liabilities.ts PublishedSnapshot), or one of its
 * currencies: the stored trees are put together as they are, never parsed again.
 */
export async function publishedSnapshot(db: Db, which: number | 'latest', currency?: string): Promise<string> {
  const snapshot = which === 'latest' ? await repo.latestSnapshot(db) : await repo.snapshot(db, which);
  if (!snapshot) throw new DomainError('not_found', undefined, 'No such snapshot.');
  const trees = await repo.trees(db, snapshot.id, currency);
  if (currency && trees.length === 0) throw new DomainError('not_found', undefined, 'Nobody held this currency in this snapshot.');
  const head = JSON.stringify({ format: LIABILITIES_FORMAT, snapshotId: snapshot.id, takenAt: snapshot.takenAt.toISOString(), ...(currency ? {} : { reserves: snapshot.reserves }) });
  return `${head.slice(0, -1)},"trees":[${trees.map((t) => t.tree).join(',')}]}`;
}

/** GET /api/wallet/proof: in each of the account's newest snapshots, its nonce and every leaf with its path. */
export async function myProofs(db: Db, accountId: string, options: { before?: number; limit: number }): Promise<MyProofResponse> {
  const rows = await repo.accountSnapshots(db, accountId, { before: options.before, limit: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  const trees = await repo.treeSummaries(
    db,
    page.map((p) => p.snapshotId),
  );
  const proofs: MyProofResponse['proofs'] = [];
  for (const row of page) {
    const currencies: MyProofResponse['proofs'][number]['currencies'] = [];
    for (const [currency, indexes] of Object.entries(row.leaves).sort(([a], [b]) => a.localeCompare(b))) {
      const tree = trees.find((t) => t.snapshotId === row.snapshotId && t.currency === currency)!;
      // Each leaf and its path's siblings, read at their offsets in the packed levels (one query per currency).
      const wanted = indexes.map((index) => pathOffsets(tree.leafCount, index));
      const offsets = wanted.flatMap((w) => [w.leaf, ...w.siblings.filter((o): o is number => o !== null)]);
      const pieces = await repo.nodeBytes(db, row.snapshotId, currency, offsets, PACKED_NODE_BYTES);
      const read = new Map(offsets.map((offset, i) => [offset, unpackNode(pieces[i]!)]));
      const node = (offset: number | null) => (offset === null ? EMPTY_PUBLISHED : read.get(offset)!);
      const leaves = indexes.map((index, i) => ({ index, value: node(wanted[i]!.leaf)[1], path: wanted[i]!.siblings.map(node) }));
      const balance = leaves.reduce((sum, leaf) => sum + BigInt(leaf.value), 0n);
      const places = tree.decimals;
      currencies.push({ currency, decimals: places, balance: minorToDecimal(balance, places), root: { hash: tree.rootHash, sum: tree.total }, file: treeFile(row.snapshotId, currency), leaves });
    }
    proofs.push({ snapshotId: row.snapshotId, takenAt: row.takenAt.toISOString(), nonce: row.nonce, currencies });
  }
  return { proofs, next: rows.length > options.limit ? page[page.length - 1]!.snapshotId : null };
}
