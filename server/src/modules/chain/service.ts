import { xrpAccountOf } from '#domain/addresses';
import { HOUSE_BRANCHES, type NodeCurrency } from '#domain/chain';
import { knownDecimals } from '#domain/currencies';
import { DomainError } from '#domain/errors';
import { minorToDecimal } from '#domain/money';
import { lockKey } from '../../db/raw';
import { recordAudit } from '../audit/service';
import { transfersByIds } from '../ledger/service';
import { BRANCH_CHILD, deriveAddress, type Branch, type DERIVED_CURRENCIES, type Xpubs } from './derive';
import { chainRepository, type ChainAlertRow, type ChainOutputRow } from './repository';
import type { ChainAlert, ChainOutput, HouseOutputsResponse, UnmatchedChainOutput } from '#domain/contracts/chain';
import type { IncomingDeposit } from '#domain/contracts/wallet';
import type { Db, Tx } from '../../db/client';

export { DERIVED_CURRENCIES, TEST_XPUBS, deriveAddress, houseKey, type Branch, type Xpubs } from './derive';

/**
 * The next unused address of the house key for a currency, on a branch: users' reception
 * addresses or orders' receiving addresses (derive.ts). Each branch has its own counter (XRP's
 * tags one for both, since they share one account), so no address serves two purposes.
 * Concurrent requests queue on the counter's row: each gets its own index.
 */
export async function nextHouseAddress(
  db: Db,
  xpubs: Xpubs,
  code: (typeof DERIVED_CURRENCIES)[number],
  branch: Branch,
): Promise<{ index: number; address: string }> {
  const index = await chainRepository.takeNextIndex(db, counterOf(code, branch));
  const address = deriveAddress(code, xpubs, index, branch);
  // The watcher knows the house's outputs by this row, the signer the key that spends them.
  await chainRepository.insertHouseAddress(db, { address, currency: code, branch, derivationIndex: index });
  return { index, address };
}

/** The users' counter keeps the currency's bare name: it is the one every address used before orders had a branch. */
const counterOf = (code: string, branch: Branch) =>
  branch === 'users' || code === 'XRP' ? code : `${code}/${BRANCH_CHILD[branch]}`;

/** How many addresses of a branch were handed out (the next index). */
export const addressesHandedOut = (db: Db, code: string, branch: Branch) =>
  chainRepository.counter(db, counterOf(code, branch));

/**
 * The height of the block the watcher saw this transaction in, or null: a signer that reports its
 * transaction late (it was killed between the broadcast and the report) may report one already
 * mined, whose block the watcher scanned before it knew the txid.
 */
export const minedHeightOf = async (db: Db, currency: string, txid: string) =>
  (await chainRepository.minedHeight(db, currency, txid)) ??
  (await chainRepository.houseTx(db, currency, txid))?.height ??
  null;

/** Account chains: the house's transaction as the watcher saw it mined (its block, fee, failure), or undefined. */
export const minedHouseTx = (db: Db, currency: string, txid: string) => chainRepository.houseTx(db, currency, txid);

/**
 * The signer's transaction spends these house outputs (txid:vout): they are no longer spendable,
 * from the moment it reports them (before any block holds the transaction).
 */
export async function markOutputsSpent(tx: Tx, currency: string, outpoints: string[], spentBy: string): Promise<void> {
  await chainRepository.markSpent(
    tx,
    currency,
    outpoints.map((outpoint) => {
      const [txid, vout] = outpoint.split(':');
      return { txid: txid!, vout: Number(vout) };
    }),
    spentBy,
  );
}

export type { ChainAlertRow, ChainOutputRow, HouseAddressRow } from './repository';

export type Block = { height: number; hash: string };

/**
 * What the API reads from the blockchains besides its own addresses: blocks (the faucet mixes the
 * hash of the first block after registrations close into its draw) and, where the adapter can,
 * the balances of the house's addresses (the reserves beside the proof of liabilities).
 * Local mode plugs in the simulated chain (server/src/dev/simulated-chain.ts); a deployment with
 * real payouts plugs in a block explorer's API (esplora.ts).
 */
export type Chain = {
  /** A stable name of the block source, published with every draw: 'simulated-chain', 'bitcoin'. */
  readonly name: string;
  /** The highest block there is. */
  tip(db: Db): Promise<Block>;
  /** The block at `height`, or null while it does not exist yet. */
  block(db: Db, height: number): Promise<Block | null>;
  /** The on-chain balances (minor units) of these addresses, or null when this adapter does not read balances. */
  balances(db: Db, currency: string, addresses: string[]): Promise<Map<string, bigint> | null>;
  /** A deposit to one of the house's addresses was reported (the simulated chain records it; a real chain has it already). */
  received(db: Db, deposit: { currency: string; address: string; amount: bigint; txid: string }): Promise<void>;
};

/** What the signer may spend (with where each key is derived) and how many addresses each branch handed out. */
export async function houseOutputs(db: Db, currency: NodeCurrency): Promise<HouseOutputsResponse> {
  const decimals = knownDecimals(currency);
  const rows = await chainRepository.spendable(db, currency);
  const [users, orders, change] = await Promise.all(
    HOUSE_BRANCHES.map((branch) => addressesHandedOut(db, currency, branch)),
  );
  return {
    outputs: rows.map((row) => ({
      txid: row.txid,
      vout: row.vout,
      address: row.address,
      amount: minorToDecimal(row.amount, decimals),
      branch: row.branch,
      index: row.derivationIndex,
    })),
    handedOut: { users: users!, orders: orders!, change: change! },
  };
}

export function chainOutputView(row: ChainOutputRow): ChainOutput {
  return {
    currency: row.currency,
    txid: row.txid,
    vout: row.vout,
    address: row.address,
    amount: minorToDecimal(row.amount, knownDecimals(row.currency)),
    height: row.height,
    status: row.status,
    unmatchedReason: row.unmatchedReason,
    creditedTo: row.creditedTo,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The queue, oldest first, each with the sender its booking names (the XRP watcher keeps the
 * paying account and its source tag in the ledger transfer's metadata).
 */
export async function unmatchedChainOutputs(db: Db, limit = 200): Promise<UnmatchedChainOutput[]> {
  const rows = await chainRepository.unmatched(db, limit);
  const bookingOf = (row: ChainOutputRow) => `chain-unmatched:${row.currency}:${row.txid}:${row.vout}`;
  const metadata = new Map(
    (await transfersByIds(db, rows.map(bookingOf))).map((t) => [t.id, (t.metadata ?? {}) as Record<string, unknown>]),
  );
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return rows.map((row) => {
    const booking = metadata.get(bookingOf(row));
    const sender = text(booking?.sender);
    const senderTag = text(booking?.senderTag);
    return {
      ...chainOutputView(row),
      sender: sender === null ? null : senderTag === null ? sender : `${sender}:${senderTag}`,
    };
  });
}

/** An unmatched output, locked for an operator's decision (null: none such, or no longer unmatched). */
export async function lockUnmatchedOutput(
  tx: Tx,
  key: { currency: string; txid: string; vout: number },
): Promise<ChainOutputRow | null> {
  const row = await chainRepository.lockOutput(tx, key);
  return row && row.status === 'unmatched' ? row : null;
}
export const markOutputAssigned = (tx: Tx, key: { currency: string; txid: string; vout: number }, creditedTo: string) =>
  chainRepository.updateOutput(tx, key, { status: 'assigned', creditedTo });
/** Sent back from the queue by this payout; a failed return puts it back in the queue. */
export const markOutputReturned = (tx: Tx, key: { currency: string; txid: string; vout: number }, payoutId: string) =>
  chainRepository.updateOutput(tx, key, { status: 'returned', creditedTo: `payout:${payoutId}` });
export async function reopenReturnedOutput(
  tx: Tx,
  key: { currency: string; txid: string; vout: number },
): Promise<void> {
  const row = await chainRepository.lockOutput(tx, key);
  if (row?.status === 'returned')
    await chainRepository.updateOutput(tx, key, { status: 'unmatched', creditedTo: null });
}
/** Where the house key derives each of these addresses (branch and index), for the signer's proofs of control; an address not the house's is absent. */
export async function houseAddressPaths(
  db: Db,
  currency: string,
  addresses: string[],
): Promise<Map<string, { branch: Branch; index: number }>> {
  const rows = await chainRepository.houseAddressesIn(db, currency, addresses);
  return new Map(rows.map((row) => [row.address, { branch: row.branch, index: row.derivationIndex }]));
}

/**
 * Whether the address is one the house handed out (a payout there would pay the house itself). For
 * XRP, any tag of the house account: the account is one, whatever tag a payment to it carries.
 */
export const isHouseAddress = async (db: Db, currency: string, address: string) =>
  (await chainRepository.houseAddressesIn(db, currency, [address])).length > 0 ||
  (currency === 'XRP' && (await chainRepository.hasXrpAccount(db, xrpAccountOf(address))));

export function chainAlertView(row: ChainAlertRow): ChainAlert {
  return {
    id: row.id,
    currency: row.currency,
    kind: row.kind,
    detail: row.detail as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  };
}
export const openChainAlerts = async (db: Db) => (await chainRepository.openAlerts(db)).map(chainAlertView);
export const raiseChainAlert = (
  db: Db,
  alert: { currency: string; kind: ChainAlertRow['kind']; detail: Record<string, unknown> },
) => chainRepository.insertAlert(db, alert);

/**
 * A reconciliation's difference, alerted once while its alert is open: the daily run of every
 * replica, and every run until an operator resolves it, finds the same difference again. A new
 * difference is a new alert.
 */
export async function raiseReconciliationAlert(
  db: Db,
  currency: string,
  detail: Record<string, unknown> & { difference: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockKey(tx, `chain-alert:${currency}`);
    const open = (await chainRepository.openAlerts(tx)).some(
      (alert) =>
        alert.currency === currency &&
        alert.kind === 'reconciliation' &&
        (alert.detail as { difference?: string }).difference === detail.difference,
    );
    if (!open) await chainRepository.insertAlert(tx, { currency, kind: 'reconciliation', detail });
  });
}
/** How much waits for the operator on the chain side (the console's first page). */
export const chainQueueCounts = (db: Db) => chainRepository.countOpen(db);

export async function resolveChainAlert(db: Db, id: string, actor: string): Promise<ChainAlert> {
  return db.transaction(async (tx) => {
    const row = await chainRepository.resolveAlert(tx, id, actor);
    if (!row) throw new DomainError('not_found');
    await recordAudit(tx, {
      actor,
      action: 'chain.alert_resolved',
      target: row.id,
      after: { kind: row.kind, currency: row.currency },
    });
    return chainAlertView(row);
  });
}

/**
 * What the watcher says the house holds of a currency, per address with its branch, and the block
 * it has read up to (the reserves beside the proof of liabilities); null when it follows no chain
 * of this currency.
 */
export async function houseHoldings(
  db: Db,
  currency: string,
): Promise<{
  height: number;
  blockHash: string;
  byAddress: { address: string; branch: Branch; amount: bigint }[];
} | null> {
  const [tip] = await chainRepository.lastBlocks(db, currency, 1);
  if (!tip) return null;
  const byAddress = new Map<string, { address: string; branch: Branch; amount: bigint }>();
  for (const row of await chainRepository.spendable(db, currency)) {
    const held =
      byAddress.get(row.address) ??
      byAddress.set(row.address, { address: row.address, branch: row.branch, amount: 0n }).get(row.address)!;
    held.amount += row.amount;
  }
  return { height: tip.height, blockHash: tip.hash, byAddress: [...byAddress.values()] };
}

/** The watcher's unspent house outputs, summed (the reconciliation's "tracked"). */
export const trackedUnspent = (db: Db, currency: string) => chainRepository.unspentTotal(db, currency);
/** Deposits mined but not yet credited (confirming): on chain, not yet in the ledger. */
export const confirmingTotal = (db: Db, currency: string) => chainRepository.confirmingTotal(db, currency);

/** Confirming deposits at these addresses, with how many confirmations each has (the wallet and order pages show them). */
export async function confirmingAt(
  db: Db,
  currency: string,
  addresses: string[],
): Promise<{ address: string; txid: string; amount: bigint; confirmations: number }[]> {
  const rows = (await chainRepository.outputsAt(db, currency, addresses)).filter((row) => row.status === 'confirming');
  if (rows.length === 0) return [];
  const [tip] = await chainRepository.lastBlocks(db, currency, 1);
  return rows.map((row) => ({
    address: row.address,
    txid: `${row.txid}:${row.vout}`,
    amount: row.amount,
    confirmations: tip ? tip.height - row.height + 1 : 0,
  }));
}

/** The same, as the wallet's and the order's pages show them: per address, "n of N" with its amount in the currency's decimals. */
export async function incomingAt(
  db: Db,
  currency: string,
  addresses: string[],
  required: number,
): Promise<Map<string, IncomingDeposit[]>> {
  const decimals = knownDecimals(currency);
  const byAddress = new Map<string, IncomingDeposit[]>(addresses.map((address) => [address, []]));
  for (const d of await confirmingAt(db, currency, addresses)) {
    byAddress.get(d.address)?.push({
      txid: d.txid,
      amount: minorToDecimal(d.amount, decimals),
      confirmations: Math.min(d.confirmations, required),
      required,
    });
  }
  return byAddress;
}
