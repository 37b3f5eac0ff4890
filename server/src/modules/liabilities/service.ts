import { hash, randomBytes } from 'node:crypto';
import { bytesToHex } from '@noble/hashes/utils.js';
import { createSHA256 } from 'hash-wasm';
import { knownDecimals } from '#domain/currencies';
import { DomainError } from '#domain/errors';
import {
  BLOCK_LEVELS,
  blockPath,
  buildTree,
  LIABILITIES_FORMAT,
  NONCE_BYTES,
  ownerCommitment,
  PACKED_LEAF_BYTES,
  PACKED_NODE_BYTES,
  snapshotDigest,
  unpackLeaves,
  unpackNode,
  upperOffsets,
  type Digest,
  type LeafProof,
  type OwnerAmount,
  type PublishedTree,
} from '#domain/liabilities';
import { decimalToMinor, minorToDecimal } from '#domain/money';
import { recordAudit } from '../audit/service';
import { DERIVED_CURRENCIES, houseHoldings, type Chain, type Xpubs } from '../chain/service';
import { allUserBalances } from '../ledger/service';
import { receivingAddresses } from '../orders/service';
import { allReceptionAddresses } from '../wallet/addresses';
import { liabilitiesRepository as repo, type ControlRow, type SnapshotRow, type TreeSummaryRow } from './repository';
import type {
  ControlProof,
  MyProofResponse,
  Reserves,
  SnapshotSummary,
  SnapshotsResponse,
} from '#domain/contracts/liabilities';
import type { Db, Tx } from '../../db/client';

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

/**
 * SHA-256 in WebAssembly (hash-wasm) for building a snapshot's trees: for the tree's small inputs
 * (one or two blocks) it takes 0.6 µs against Node's 1.0 µs, whose cost is the call, not the
 * hashing. A tree of 100,000 holders hashes about 600,000 times. One hasher, used a call at a time.
 */
let wasmDigest: Promise<Digest> | undefined;
export const treeDigest = (): Promise<Digest> =>
  (wasmDigest ??= createSHA256().then((hasher) => (data: Uint8Array) => {
    hasher.init();
    hasher.update(data);
    return hasher.digest('binary');
  }));

export const snapshotFile = (id: number) => `/proof/${id}.json`;
export const treeFile = (id: number, currency: string) => `/proof/${id}/${currency}.json`;

/** Minor units as the currency's decimal string. */
const shown = (currency: string, minor: bigint) => minorToDecimal(minor, knownDecimals(currency));

/**
 * What the house held per currency at the snapshot: its own addresses listed (the change branch,
 * where a chain's hot wallet and change live; the one XRP account), the customers' deposit
 * addresses only counted and summed. A chain the watcher follows is read from the watcher's unspent
 * outputs at the block it has read up to; otherwise (local mode) the simulated chain says.
 */
async function readReserves(db: Db, deps: LiabilitiesDeps): Promise<Reserves> {
  const reception = await allReceptionAddresses(db);
  const receiving = await receivingAddresses(db);
  const currencies: Reserves['currencies'] = [];
  for (const currency of DERIVED_CURRENCIES) {
    const account = currency === 'XRP' ? deps.xpubs.XRP : null;
    // A chain the watcher follows is read where the watcher has read it; otherwise the chain adapter says, if it can.
    const holdings = await houseHoldings(db, currency);
    if (!holdings) {
      const deposits = [...reception, ...receiving].filter((a) => a.currency === currency).map((a) => a.address);
      const simulated = await deps.chain.balances(db, currency, account ? [account] : deposits);
      if (!simulated) {
        currencies.push({
          currency,
          height: null,
          blockHash: null,
          addresses: account ? [{ address: account, role: 'account', balance: null }] : [],
          held: null,
        });
        continue;
      }
      const sum = [...simulated.values()].reduce((a, b) => a + b, 0n);
      const tip = await deps.chain.tip(db);
      currencies.push({
        currency,
        height: tip.height,
        blockHash: tip.hash,
        addresses: account ? [{ address: account, role: 'account', balance: shown(currency, sum) }] : [],
        depositAddresses: {
          count: account ? 0 : [...simulated.values()].filter((b) => b > 0n).length,
          balance: shown(currency, account ? 0n : sum),
        },
        held: shown(currency, sum),
      });
      continue;
    }
    const own = holdings.byAddress.filter((h) => h.branch === 'change');
    const customers = holdings.byAddress.filter((h) => h.branch !== 'change' && h.amount > 0n);
    const sum = (list: { amount: bigint }[]) => list.reduce((a, h) => a + h.amount, 0n);
    currencies.push({
      currency,
      height: holdings.height,
      blockHash: holdings.blockHash,
      addresses: account
        ? [{ address: account, role: 'account', balance: shown(currency, sum(holdings.byAddress)) }]
        : own
            .sort((a, b) => a.address.localeCompare(b.address))
            .map((h) => ({ address: h.address, role: 'change' as const, balance: shown(currency, h.amount) })),
      depositAddresses: {
        count: account ? 0 : customers.length,
        balance: shown(currency, account ? 0n : sum(customers)),
      },
      held: shown(currency, sum(holdings.byAddress)),
    });
  }
  return { source: deps.chain.name, currencies };
}

function summary(snapshot: SnapshotRow, trees: TreeSummaryRow[], controls: ControlRow[]): SnapshotSummary {
  const reserves = snapshot.reserves as Reserves;
  const mine = trees.filter((t) => t.snapshotId === snapshot.id);
  return {
    snapshotId: snapshot.id,
    takenAt: snapshot.takenAt.toISOString(),
    format: snapshot.format,
    digest: snapshot.format === LIABILITIES_FORMAT ? snapshotDigest(statementOf(snapshot, mine), nodeDigest) : null,
    file: snapshotFile(snapshot.id),
    currencies: mine.map((t) => {
      const reserve = reserves.currencies.find((c) => c.currency === t.currency);
      const held = reserve?.held ?? null;
      const heldMinor = held === null ? null : decimalToMinor(held, t.decimals);
      return {
        currency: t.currency,
        // The decimals it was published with (ether was in gwei before migration 0033), not today's.
        decimals: t.decimals,
        rootHash: t.rootHash,
        total: minorToDecimal(BigInt(t.total), t.decimals),
        leafCount: t.leafCount,
        held,
        difference: heldMinor === null ? null : minorToDecimal(heldMinor - BigInt(t.total), t.decimals),
        height: reserve?.height ?? null,
        controlled: controls.filter((c) => c.snapshotId === snapshot.id && c.currency === t.currency).length,
        file: treeFile(snapshot.id, t.currency),
      };
    }),
  };
}

/** The published statement of a snapshot's trees (domain/liabilities.ts snapshotStatement). */
const statementOf = (snapshot: SnapshotRow, trees: TreeSummaryRow[]) => ({
  snapshotId: snapshot.id,
  takenAt: snapshot.takenAt.toISOString(),
  trees: trees.filter((t) => t.snapshotId === snapshot.id).map(publishedTreeOf),
});
const publishedTreeOf = (t: TreeSummaryRow): PublishedTree => ({
  currency: t.currency,
  decimals: t.decimals,
  leafCount: t.leafCount,
  root: { hash: t.rootHash, sum: t.total },
});

const uniqueViolation = (error: unknown): boolean => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: string }).code === '23505') return true;
  return false;
};

/** What a snapshot is made of, read in one REPEATABLE READ transaction: one instant of the ledger. */
type SnapshotRead = { takenAt: Date; owed: Owed[]; reserves: Reserves };
/** An amount owed: `owner` is what the leaves commit to (an account id, `order:<id>`, `unmatched`, `payouts`), `account` who may see them. */
type Owed = { owner: string; account: string | null; currency: string; amount: bigint };

/**
 * Everything owed to customers at one instant: wallet balances, and what waits outside the wallets
 * (liabilities/repository.ts owedOutsideWallets). The clearing account must equal the payouts in
 * it; should it hold more, the rest is owed too (to nobody known) and stated as `payouts`, so the
 * published total is never less than what the ledger says is owed.
 */
async function readOwed(tx: Tx): Promise<Owed[]> {
  const owed: Owed[] = (await allUserBalances(tx))
    .filter((b) => b.balance > 0n)
    .map((b) => ({ owner: b.ownerId, account: b.ownerId, currency: b.currency, amount: b.balance }));
  const outside = await repo.owedOutsideWallets(tx);
  const inClearing = new Map<string, bigint>();
  for (const row of outside) {
    if (row.kind === 'clearing') continue;
    owed.push({ owner: row.owner, account: row.account, currency: row.currency, amount: row.amount });
    if (row.kind === 'payout') inClearing.set(row.currency, (inClearing.get(row.currency) ?? 0n) + row.amount);
  }
  for (const row of outside.filter((r) => r.kind === 'clearing')) {
    const rest = row.amount - (inClearing.get(row.currency) ?? 0n);
    if (rest > 0n) owed.push({ owner: 'payouts', account: null, currency: row.currency, amount: rest });
  }
  return owed;
}

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
export async function publishSnapshot(
  db: Db,
  deps: LiabilitiesDeps,
  options: { intervalMs?: number; actor?: string } = {},
): Promise<SnapshotSummary | null> {
  const scheduled = options.intervalMs !== undefined;
  const slotOf = (at: Date) => (scheduled ? Math.floor(at.getTime() / options.intervalMs!) : null);
  // The schedule asks every minute on every replica: a period already published costs one lookup, not a read of the ledger.
  if (scheduled && (await repo.slotTaken(db, slotOf(await repo.transactionTime(db))!))) return null;
  for (;;) {
    const read: SnapshotRead = await db.transaction(
      async (tx) => ({
        takenAt: await repo.transactionTime(tx),
        owed: await readOwed(tx),
        reserves: await readReserves(tx, deps),
      }),
      {
        isolationLevel: 'repeatable read',
      },
    );
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
async function publishRead(
  tx: Tx,
  read: SnapshotRead,
  options: { slot: number | null; actor: string },
): Promise<SnapshotSummary> {
  const digest = await treeDigest();
  // One nonce per owner for the snapshot; the commitment to it and the owner's id serves all of the owner's trees.
  const nonces = new Map<string, Buffer>();
  const commitments = new Map<string, Uint8Array>();
  const byCurrency = new Map<string, Map<string, OwnerAmount>>();
  // The nonces are cut from one draw of random bytes (one call per owner took half a second for 100,000).
  const random = randomBytes(NONCE_BYTES * read.owed.length);
  for (const o of read.owed) {
    if (!commitments.has(o.owner)) {
      const nonce = random.subarray(NONCE_BYTES * nonces.size, NONCE_BYTES * (nonces.size + 1));
      nonces.set(o.owner, nonce);
      commitments.set(o.owner, ownerCommitment(o.owner, nonce, digest));
    }
    // One owner may be owed in several ways (a balance and a send waiting): one amount per owner and currency.
    const owners = byCurrency.get(o.currency) ?? byCurrency.set(o.currency, new Map()).get(o.currency)!;
    const entry =
      owners.get(o.owner) ??
      owners.set(o.owner, { owner: o.owner, amount: 0n, commitment: commitments.get(o.owner)! }).get(o.owner)!;
    entry.amount += o.amount;
  }
  const accountOf = new Map(read.owed.filter((o) => o.account).map((o) => [o.owner, o.account!]));
  const snapshot = await repo.insertSnapshot(tx, {
    takenAt: read.takenAt,
    slot: options.slot,
    reserves: read.reserves,
    format: LIABILITIES_FORMAT,
  });
  // One currency at a time, stored as soon as it is built: a large ledger's trees are never all in memory at once.
  const leaves = new Map<string, Record<string, number[]>>();
  for (const currency of [...byCurrency.keys()].sort()) {
    const built = buildTree(currency, [...byCurrency.get(currency)!.values()], { digest });
    // An owner's pieces are consecutive: one lookup per owner, not per leaf.
    let mine: number[] | null = null;
    for (let i = 0; i < built.pieceOwners.length; i++) {
      const owner = built.pieceOwners[i]!;
      if (i === 0 || owner !== built.pieceOwners[i - 1]) {
        mine = null;
        if (!accountOf.has(owner)) continue;
        const own = leaves.get(owner) ?? leaves.set(owner, {}).get(owner)!;
        mine = own[currency] = [];
      }
      mine?.push(built.piecePlaces[i]!);
    }
    for (const own of leaves.values()) own[currency]?.sort((a, b) => a - b);
    await repo.insertTree(tx, {
      snapshotId: snapshot.id,
      currency,
      rootHash: bytesToHex(built.root.hash),
      total: built.root.sum.toString(),
      decimals: knownDecimals(currency),
      leafCount: built.leafCount,
      tree: null,
      nodes: built.nodes,
      leaves: built.leaves,
      directory: built.directory,
      paddingSeed: built.paddingSeed,
    });
  }
  // Only an account can ask for its proof: the secrets of anonymous and unclaimed money are not kept.
  await repo.insertAccounts(
    tx,
    [...leaves].map(([owner, own]) => ({
      snapshotId: snapshot.id,
      accountId: accountOf.get(owner)!,
      nonce: nonces.get(owner)!.toString('hex'),
      leaves: own,
    })),
  );
  const published = summary(snapshot, await repo.treeSummaries(tx, [snapshot.id]), []);
  // Public figures only (what the published file says): no account, nonce or amount of anyone.
  await recordAudit(tx, {
    actor: options.actor,
    action: 'liabilities.publish',
    target: String(snapshot.id),
    after: {
      takenAt: published.takenAt,
      digest: published.digest,
      roots: published.currencies.map((c) => ({
        currency: c.currency,
        total: c.total,
        rootHash: c.rootHash,
        leafCount: c.leafCount,
      })),
    },
  });
  return published;
}

/** GET /api/liabilities: the snapshots, newest first, with their roots and what the house held. */
export async function listSnapshots(db: Db, options: { before?: number; limit: number }): Promise<SnapshotsResponse> {
  const rows = await repo.snapshots(db, { before: options.before, limit: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  const ids = page.map((s) => s.id);
  const [trees, controls] = await Promise.all([repo.treeSummaries(db, ids), repo.controls(db, ids)]);
  return {
    snapshots: page.map((s) => summary(s, trees, controls)),
    next: rows.length > options.limit ? page[page.length - 1]!.id : null,
  };
}

/**
 * The published snapshot (domain/liabilities.ts PublishedSnapshot) as JSON text, or one currency
 * of it. A snapshot of format 1 keeps only its totals (migration 0035 withdrew the rest).
 */
export async function publishedSnapshot(db: Db, which: number | 'latest', currency?: string): Promise<string> {
  const snapshot = which === 'latest' ? await repo.latestSnapshot(db) : await repo.snapshot(db, which);
  if (!snapshot) throw new DomainError('not_found', undefined, 'No such snapshot.');
  const trees = (await repo.treeSummaries(db, [snapshot.id])).filter((t) => !currency || t.currency === currency);
  if (currency && trees.length === 0)
    throw new DomainError('not_found', undefined, 'Nobody was owed this currency in this snapshot.');
  const reserves = snapshot.reserves as Reserves;
  return JSON.stringify({
    format: snapshot.format,
    snapshotId: snapshot.id,
    takenAt: snapshot.takenAt.toISOString(),
    trees: trees.map(publishedTreeOf),
    reserves: currency
      ? { ...reserves, currencies: reserves.currencies.filter((c) => c.currency === currency) }
      : reserves,
  });
}

/** GET /api/liabilities/:id/control: the verified proofs of control of the snapshot's house addresses. */
export async function controlProofs(db: Db, snapshotId: number): Promise<ControlProof[]> {
  if (!(await repo.snapshot(db, snapshotId))) throw new DomainError('not_found', undefined, 'No such snapshot.');
  return (await repo.controls(db, [snapshotId])).map((c) => ({
    currency: c.currency,
    address: c.address,
    scheme: c.scheme as ControlProof['scheme'],
    message: c.message,
    signature: c.signature,
    publicKey: c.publicKey,
  }));
}

/**
 * Each leaf with its path: the lower steps computed again from the leaves of its block (read from
 * the packed leaves by the directory), the upper steps read at their offsets in the packed levels.
 * Three statements per currency, whatever the number of leaves.
 */
async function leafProofs(db: Db, snapshotId: number, tree: TreeSummaryRow, indexes: number[]): Promise<LeafProof[]> {
  const blocks = [...new Set(indexes.map((index) => index >> BLOCK_LEVELS))];
  const directory = await repo.treeBytes(
    db,
    snapshotId,
    tree.currency,
    'directory',
    blocks.map((block) => ({ offset: 4 * block, length: 8 })),
  );
  const ranges = directory.pieces.map((bytes) => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const [first, end] = [view.getUint32(0), view.getUint32(4)];
    return { offset: first * PACKED_LEAF_BYTES, length: (end - first) * PACKED_LEAF_BYTES };
  });
  const inBlocks = await repo.treeBytes(db, snapshotId, tree.currency, 'leaves', ranges);
  const blockLeaves = new Map(blocks.map((block, i) => [block, unpackLeaves(inBlocks.pieces[i]!)]));
  const upper = indexes.map((index) => upperOffsets(tree.leafCount, index));
  const offsets = [...new Set(upper.flat())];
  const nodes = await repo.treeBytes(
    db,
    snapshotId,
    tree.currency,
    'nodes',
    offsets.map((offset) => ({ offset, length: PACKED_NODE_BYTES })),
  );
  const nodeAt = new Map(offsets.map((offset, i) => [offset, unpackNode(nodes.pieces[i]!)]));
  return indexes.map((index, i) => {
    const own = blockLeaves.get(index >> BLOCK_LEVELS)!;
    const leaf = own.find((l) => l.index === index)!;
    const lower = blockPath(tree.currency, index, own, directory.paddingSeed, nodeDigest);
    return {
      index,
      value: leaf.node.sum.toString(),
      path: [...lower, ...upper[i]!.map((offset) => nodeAt.get(offset)!)],
    };
  });
}

/** GET /api/wallet/proof: in each of the account's newest snapshots, its nonce and every leaf with its path. */
export async function myProofs(
  db: Db,
  accountId: string,
  options: { before?: number; limit: number },
): Promise<MyProofResponse> {
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
      const leaves = await leafProofs(db, row.snapshotId, tree, indexes);
      const balance = leaves.reduce((sum, leaf) => sum + BigInt(leaf.value), 0n);
      currencies.push({
        currency,
        decimals: tree.decimals,
        balance: minorToDecimal(balance, tree.decimals),
        root: { hash: tree.rootHash, sum: tree.total },
        leafCount: tree.leafCount,
        file: treeFile(row.snapshotId, currency),
        leaves,
      });
    }
    proofs.push({
      snapshotId: row.snapshotId,
      takenAt: row.takenAt.toISOString(),
      owner: accountId,
      nonce: row.nonce,
      currencies,
    });
  }
  return { proofs, next: rows.length > options.limit ? page[page.length - 1]!.snapshotId : null };
}

/** A published snapshot of format 2 with its digest and reserves (what the proofs of control sign), or not_found. */
export async function snapshotForControl(
  db: Db,
  snapshotId: number,
): Promise<{ snapshotId: number; digest: string; reserves: Reserves }> {
  const snapshot = await repo.snapshot(db, snapshotId);
  if (!snapshot || snapshot.format !== LIABILITIES_FORMAT)
    throw new DomainError('not_found', undefined, 'No such snapshot of the current format.');
  const trees = await repo.treeSummaries(db, [snapshotId]);
  return {
    snapshotId,
    digest: snapshotDigest(statementOf(snapshot, trees), nodeDigest),
    reserves: snapshot.reserves as Reserves,
  };
}

/** Stores a proof of control already verified (liabilities/control.ts). */
export const storeControl = (db: Db, proof: ControlProof & { snapshotId: number }) => repo.insertControl(db, proof);
