import { MIN_DEPOSIT_MINOR, type NodeCurrency } from '#domain/chain';
import { DomainError } from '#domain/errors';
import { lockKey } from '../../db/raw';
import { recordAudit } from '../audit/service';
import { systemAccount, transfer } from '../ledger/service';
import { chainRepository, type ChainOutputRow } from './repository';
import type { Db, Tx } from '../../db/client';
import type { EthTx } from './ethereum';
import type { CoinNode, NodeBlock } from './rpc';

/**
 * The deposit watcher (issue 30): asks each currency's node for new blocks, from a stored cursor,
 * and follows the house's outputs through them. Modelled on NBXplorer's and Peatio's block
 * scanners, and on their users' reports of what goes wrong (missed deposits, double credits,
 * reorgs):
 * - every block's hash is kept; a node whose block at a stored height has another hash has
 *   reorganised, and the watcher walks back to the last height where both agree before it goes on;
 * - an output at a house address is tracked as txid:vout (one credit per output, whatever the
 *   watcher sees twice, and two outputs of one transaction are two deposits);
 * - it is credited only after the currency's confirmations. An output whose block leaves the chain
 *   before that is never credited (orphaned); one whose block leaves after (a reorg deeper than the
 *   confirmations) is booked back and raises an operator alert, never silently;
 * - dust and outputs to addresses that expect nothing (an order no longer open) are booked to the
 *   unmatched account and wait in the console's queue (assign to an account), never lost;
 * - the signer's own payouts are confirmed the same way, block by block (`payoutsInBlock`).
 * Every write is idempotent (keys on txid:vout and the blocks' heights), so two replicas scanning
 * at once book everything once.
 */
export type WatcherHooks = {
  /** Books a confirmed deposit to its wallet or order; a DomainError: nothing there expects it (unmatched). `creditedTo` names it for the audit trail. */
  credit(
    db: Db,
    deposit: { currency: NodeCurrency; address: string; amount: bigint; txid: string },
  ): Promise<{ creditedTo: string }>;
  /** Books back a credited deposit whose block left the chain (inside the caller's transaction). */
  reverse(tx: Tx, output: ChainOutputRow): Promise<void>;
  /** The txids of a block that are broadcast payouts: their confirmation height is set. */
  payoutsInBlock(tx: Tx, currency: NodeCurrency, txids: string[], height: number): Promise<void>;
  /** The blocks above `height` left the chain: the broadcast payouts in them wait for a block again. */
  payoutsUnconfirmedAbove(tx: Tx, currency: NodeCurrency, height: number): Promise<void>;
  /** Completes the broadcast payouts confirmed at or below `height`; how many. */
  completePayouts(db: Db, currency: NodeCurrency, height: number): Promise<number>;
  /** Any completed payout confirmed above `height` (a reorg deeper than the confirmations took it): for the alert. */
  completedPayoutsAbove(db: Db, currency: NodeCurrency, height: number): Promise<string[]>;
  /**
   * Account chains (ether): a transaction sent from a house address was mined, with the fee it paid
   * and whether it failed (status 0). A payout's is its real fee (or its failure); a sweep's or a gas
   * funding's fee is the house's cost (inside the block's transaction).
   */
  houseTxMined?(
    tx: Tx,
    currency: NodeCurrency,
    mined: { txid: string; fee: bigint; failed: boolean; toHouse: boolean },
  ): Promise<void>;
};

export type WatcherSettings = {
  confirmations: number;
  /** A first run starts this many blocks below the tip (nothing was handed out before). */
  rescanBlocks: number;
  /** How deep a reorg the watcher can follow (the blocks' hashes it keeps). */
  keepBlocks: number;
  /** Blocks scanned per run at most (the next run goes on). */
  batch: number;
};

export const DEFAULT_WATCHER_SETTINGS: Omit<WatcherSettings, 'confirmations'> = {
  rescanBlocks: 100,
  keepBlocks: 1000,
  batch: 500,
};

export type ScanResult = {
  scanned: number;
  reorgDepth: number;
  credited: number;
  unmatched: number;
  payoutsCompleted: number;
  tip: number;
};

const outpoint = (row: { txid: string; vout: number }) => `${row.txid}:${row.vout}`;
const ACTOR = 'system:chain-watcher';

export async function scanChain(
  db: Db,
  node: CoinNode,
  hooks: WatcherHooks,
  settings: WatcherSettings,
): Promise<ScanResult> {
  const currency = node.currency;
  const tip = await node.tip();
  const result: ScanResult = {
    scanned: 0,
    reorgDepth: 0,
    credited: 0,
    unmatched: 0,
    payoutsCompleted: 0,
    tip: tip.height,
  };

  // Where the stored chain and the node's agree.
  const stored = await chainRepository.lastBlocks(db, currency, settings.keepBlocks);
  let height = Math.max(-1, tip.height - settings.rescanBlocks - 1);
  if (stored.length > 0) {
    let agreed: number | null = null;
    for (const block of stored) {
      if ((await node.blockHash(block.height)) === block.hash) {
        agreed = block.height;
        break;
      }
    }
    const tooDeep = agreed === null;
    // Deeper than every hash kept: the watcher cannot tell what changed. It rolls back all it knows.
    agreed ??= stored[stored.length - 1]!.height - 1;
    if (agreed < stored[0]!.height) {
      result.reorgDepth = stored[0]!.height - agreed;
      const firstGone = stored.find((block) => block.height === agreed! + 1)!;
      await rollBack(db, currency, { height: agreed, firstGone }, hooks, tooDeep);
    }
    height = agreed;
  }

  let previousHash = stored.find((block) => block.height === height)?.hash ?? null;
  // The next block is read from the node while this one is booked (the node and the database work at once).
  const read = async (at: number) => {
    const hash = await node.blockHash(at);
    return hash ? node.block(hash) : null;
  };
  let next = height < tip.height ? read(height + 1) : null;
  while (next && result.scanned < settings.batch) {
    const block = await next;
    if (!block) break;
    // The node reorganised while we read it: the next run walks back.
    if (previousHash && block.previousHash !== previousHash) break;
    next = block.height < tip.height && result.scanned + 1 < settings.batch ? read(block.height + 1) : null;
    // A read ahead that fails is the next run's to retry; this block is booked first.
    next?.catch(() => undefined);
    await scanBlock(db, currency, block, hooks);
    height = block.height;
    previousHash = block.hash;
    result.scanned++;
  }
  await chainRepository.pruneBlocks(db, currency, height - settings.keepBlocks);

  // Confirmations are counted against the height scanned (tip included: one confirmation).
  const confirmedAt = height - settings.confirmations + 1;
  const due = await chainRepository.confirming(db, currency, confirmedAt);
  // Up to 50 credits share one commit (each its own savepoint): a watcher catching up after a
  // pause books hundreds of deposits without a disk flush for each.
  for (let i = 0; i < due.length; i += 50) {
    await db.transaction(async (tx) => {
      for (const output of due.slice(i, i + 50)) {
        const outcome = await settle(tx, currency, output, hooks);
        if (outcome === 'credited') result.credited++;
        if (outcome === 'unmatched') result.unmatched++;
      }
    });
  }
  result.payoutsCompleted = await hooks.completePayouts(db, currency, confirmedAt);
  return result;
}

/** One block: its house outputs (confirming, or change), the house outputs it spends, the payouts it confirms. */
async function scanBlock(db: Db, currency: NodeCurrency, block: NodeBlock, hooks: WatcherHooks): Promise<void> {
  // Account chains name each transaction's sender: the house's own transactions are found by it.
  const senders = block.txs
    .flatMap((tx) => [(tx as Partial<EthTx>).from, (tx as Partial<EthTx>).to])
    .filter((a): a is string => typeof a === 'string');
  const addresses = [
    ...new Set([
      ...block.txs.flatMap((tx) => tx.outputs.map((output) => output.address).filter((a): a is string => a !== null)),
      ...senders,
    ]),
  ];
  await db.transaction(async (tx) => {
    const house = new Map(
      (await chainRepository.houseAddressesIn(tx, currency, addresses)).map((row) => [row.address, row]),
    );
    for (const transaction of block.txs) {
      const from = (transaction as Partial<EthTx>).from;
      // Ether the house moves between its own addresses (a sweep, a gas funding) never left it: no deposit.
      const internal = from !== undefined && house.has(from);
      for (const output of transaction.outputs) {
        const owner = output.address ? house.get(output.address) : undefined;
        if (!owner || output.amount <= 0n) continue;
        const key = { currency, txid: transaction.txid, vout: output.vout };
        const inserted = await chainRepository.insertOutput(tx, {
          ...key,
          address: owner.address,
          amount: output.amount,
          height: block.height,
          blockHash: block.hash,
          status: owner.branch === 'change' || internal ? 'change' : 'confirming',
        });
        if (inserted) continue;
        // Seen before: in a block that has left the chain (a reorg that kept the transaction).
        const known = await chainRepository.lockOutput(tx, key);
        if (!known) continue;
        await chainRepository.moveOutput(tx, key, { height: block.height, blockHash: block.hash });
        if (known.status === 'orphaned')
          await chainRepository.updateOutput(tx, key, {
            status: owner.branch === 'change' || internal ? 'change' : 'confirming',
          });
        if (known.status === 'reversed') {
          // Booked back once already: an operator decides (assign from the queue), never a second credit by itself.
          await chainRepository.updateOutput(tx, key, { status: 'unmatched', unmatchedReason: 'not_expected' });
          await bookUnmatched(tx, { ...known, ...key });
        }
      }
    }
    // The house outputs this block spends (the signer's transactions): found in one query.
    const spending = new Map(
      block.txs.flatMap((transaction) =>
        transaction.inputs.map((input) => [`${input.txid}:${input.vout}`, transaction.txid] as const),
      ),
    );
    for (const spent of await chainRepository.knownOutpoints(
      tx,
      currency,
      block.txs.flatMap((transaction) => transaction.inputs),
    )) {
      await chainRepository.markSpent(
        tx,
        currency,
        [spent],
        spending.get(`${spent.txid}:${spent.vout}`)!,
        block.height,
      );
    }
    for (const transaction of block.txs) {
      const { from, to, fee, failed } = transaction as Partial<EthTx>;
      if (from !== undefined && house.has(from) && fee !== undefined && hooks.houseTxMined) {
        await chainRepository.insertHouseTx(tx, {
          currency,
          txid: transaction.txid,
          height: block.height,
          fee,
          failed: failed ?? false,
        });
        const toHouse = to !== undefined && to !== null && house.has(to);
        await hooks.houseTxMined(tx, currency, { txid: transaction.txid, fee, failed: failed ?? false, toHouse });
        // A sweep (from a deposit address to the hot one) spends what the address held before it.
        if (toHouse && !failed) await chainRepository.markSwept(tx, currency, from, transaction.txid, block.height);
      }
    }
    await hooks.payoutsInBlock(
      tx,
      currency,
      block.txs.map((t) => t.txid),
      block.height,
    );
    await chainRepository.insertBlock(tx, { currency, height: block.height, hash: block.hash });
  });
}

/** A confirmed output: credited to what its address belongs to, or to the unmatched queue. */
async function settle(
  db: Db,
  currency: NodeCurrency,
  output: ChainOutputRow,
  hooks: WatcherHooks,
): Promise<'credited' | 'unmatched' | 'skipped'> {
  const key = { currency, txid: output.txid, vout: output.vout };
  if (output.amount < MIN_DEPOSIT_MINOR[currency]) return unmatch(db, output, 'dust');
  let creditedTo: string;
  try {
    ({ creditedTo } = await hooks.credit(db, {
      currency,
      address: output.address,
      amount: output.amount,
      txid: outpoint(output),
    }));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return unmatch(db, output, 'not_expected');
  }
  // The credit is idempotent (keyed on txid:vout); the row follows it.
  await chainRepository.updateOutput(db, key, { status: 'credited', creditedTo });
  return 'credited';
}

async function unmatch(
  db: Db,
  output: ChainOutputRow,
  reason: 'dust' | 'not_expected',
): Promise<'unmatched' | 'skipped'> {
  return db.transaction(async (tx) => {
    const row = await chainRepository.lockOutput(tx, output);
    if (!row || row.status !== 'confirming') return 'skipped';
    await chainRepository.updateOutput(tx, output, { status: 'unmatched', unmatchedReason: reason });
    await bookUnmatched(tx, row);
    return 'unmatched';
  });
}

/** The coins are the house's on chain: the unmatched account holds them until an operator decides. */
async function bookUnmatched(tx: Tx, row: ChainOutputRow): Promise<void> {
  await transfer(tx, {
    id: `chain-unmatched:${row.currency}:${outpoint(row)}`,
    currency: row.currency,
    debitAccountId: (await systemAccount(tx, 'chain', row.currency)).id,
    creditAccountId: (await systemAccount(tx, 'unmatched', row.currency)).id,
    amount: row.amount,
    code: 'chain_unmatched',
    metadata: { txid: outpoint(row), address: row.address },
  });
}

/**
 * The blocks above `height` left the chain. Outputs not yet credited are orphaned (a transaction
 * that comes back in a new block is tracked again); credited ones are booked back with an alert;
 * payouts in those blocks wait for a block again. Every replica's watcher follows the node: the
 * first to see the reorg rolls it back (under a lock per currency); another finds the block it saw
 * leave the chain (`firstGone`) already gone — dropped, or replaced by the new chain's — and does
 * nothing, so each reversal is booked and alerted once.
 */
async function rollBack(
  db: Db,
  currency: NodeCurrency,
  from: { height: number; firstGone: { height: number; hash: string } },
  hooks: WatcherHooks,
  tooDeep: boolean,
): Promise<void> {
  const { height, firstGone } = from;
  await db.transaction(async (tx) => {
    await lockKey(tx, `chain-rollback:${currency}`);
    if ((await chainRepository.blockHashAt(tx, currency, firstGone.height)) !== firstGone.hash) return;
    if (tooDeep)
      await chainRepository.insertAlert(tx, {
        currency,
        kind: 'reorg_reversal',
        detail: { reason: 'reorg deeper than the blocks kept', keptFrom: height + 1 },
      });
    const completed = await hooks.completedPayoutsAbove(tx, currency, height);
    for (const output of await chainRepository.outputsInBlocksAbove(tx, currency, height)) {
      const key = { currency, txid: output.txid, vout: output.vout };
      if (output.status === 'confirming' || output.status === 'change') {
        await chainRepository.updateOutput(tx, key, { status: 'orphaned' });
        continue;
      }
      // Credited, unmatched, assigned or returned: the money was booked for coins that are gone.
      await chainRepository.updateOutput(tx, key, { status: 'reversed' });
      if (output.status === 'unmatched' || output.status === 'returned') {
        // Booked to the unmatched account: taken back from it. Already sent back to its sender from
        // there (returned): the house bears it.
        await transfer(tx, {
          id: `chain-${output.status}-reversal:${currency}:${outpoint(output)}`,
          currency,
          debitAccountId: (await systemAccount(tx, output.status === 'returned' ? 'fees' : 'unmatched', currency)).id,
          creditAccountId: (await systemAccount(tx, 'chain', currency)).id,
          amount: output.amount,
          code: 'chain_reversal',
          metadata: { txid: outpoint(output) },
        });
      } else await hooks.reverse(tx, output);
      await chainRepository.insertAlert(tx, {
        currency,
        kind: 'reorg_reversal',
        detail: {
          txid: outpoint(output),
          address: output.address,
          amount: output.amount.toString(),
          creditedTo: output.creditedTo,
          height: output.height,
        },
      });
      await recordAudit(tx, {
        actor: ACTOR,
        action: 'chain.reversal',
        target: outpoint(output),
        after: { currency, amount: output.amount.toString(), creditedTo: output.creditedTo },
      });
    }
    for (const id of completed)
      await chainRepository.insertAlert(tx, {
        currency,
        kind: 'reorg_reversal',
        detail: { payout: id, reason: 'a completed payout’s block left the chain' },
      });
    await hooks.payoutsUnconfirmedAbove(tx, currency, height);
    await chainRepository.unspendAbove(tx, currency, height);
    await chainRepository.dropHouseTxsAbove(tx, currency, height);
    await chainRepository.dropBlocksAbove(tx, currency, height);
  });
}
