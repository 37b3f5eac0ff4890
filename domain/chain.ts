/**
 * The chains Muntly watches and pays out on with a real node: the Bitcoin family (issue 30) and
 * ether (issue 31). The rules of each coin that the deposit watcher, the signer and the pages share.
 */
export const NODE_CURRENCIES = ['BTC', 'LTC', 'DOGE', 'BCH', 'ETH'] as const;
export type NodeCurrency = (typeof NODE_CURRENCIES)[number];
export const isNodeCurrency = (code: string): code is NodeCurrency =>
  (NODE_CURRENCIES as readonly string[]).includes(code);
/** The coins of unspent outputs (the Bitcoin family): what coins.ts builds and scantxoutset counts. */
export const UTXO_CURRENCIES = ['BTC', 'LTC', 'DOGE', 'BCH'] as const;
export type UtxoCurrency = (typeof UTXO_CURRENCIES)[number];
export const isUtxoCurrency = (code: string): code is UtxoCurrency =>
  (UTXO_CURRENCIES as readonly string[]).includes(code);

/**
 * Confirmations before a deposit is credited and a payout counts as confirmed (CONFIRMATIONS_<CUR>
 * overrides them). Close to what large exchanges ask (Kraken: BTC 3, LTC 12, DOGE 40, BCH 15;
 * Coinbase: BTC 3, LTC 24, DOGE 60, BCH 12), so a reorg of the depth seen in practice never
 * credits a deposit that disappears. Stated in docs/chains.md and on the fees page.
 */
// ETH: 12 blocks (about 2.5 minutes), as Kraken and Coinbase ask; the finalized checkpoint comes later (~13 minutes).
export const DEFAULT_CONFIRMATIONS: Record<NodeCurrency, number> = { BTC: 3, LTC: 12, DOGE: 40, BCH: 15, ETH: 12 };

/**
 * The smallest deposit credited by itself, in minor units: a smaller output costs more in fees to
 * spend than it is worth. It goes to the console's unmatched chain queue instead, never lost.
 */
export const MIN_DEPOSIT_MINOR: Record<NodeCurrency, bigint> = {
  BTC: 10_000n, // 0.0001 BTC
  LTC: 100_000n, // 0.001 LTC
  DOGE: 100_000_000n, // 1 DOGE
  BCH: 10_000n, // 0.0001 BCH
  ETH: 1_000_000_000_000_000n, // 0.001 ETH (wei)
};

/**
 * The fee rate the signer pays, in minor units per virtual byte: the node's estimate, held between
 * a floor (below it the network relays nothing) and a cap (a broken estimate never spends a
 * fortune). Dogecoin's relay floor is 0.01 DOGE per kB (1,000 koinu per byte) since 1.14.
 */
export const FEE_RATE_LIMITS: Record<NodeCurrency, { floor: bigint; cap: bigint }> = {
  BTC: { floor: 1n, cap: 500n },
  LTC: { floor: 1n, cap: 200n },
  DOGE: { floor: 1_000n, cap: 50_000n },
  BCH: { floor: 1n, cap: 20n },
  // Wei per gas (EIP-1559 max fee): 1 gwei floor, 500 gwei cap; the signer's own cap is ETH_MAX_FEE_GWEI.
  ETH: { floor: 1_000_000_000n, cap: 500_000_000_000n },
};

/** The fee rate to pay: the estimate (none: the floor), held between the floor and the cap. */
export function boundedFeeRate(currency: NodeCurrency, estimate: bigint | null): bigint {
  const { floor, cap } = FEE_RATE_LIMITS[currency];
  if (estimate === null || estimate < floor) return floor;
  return estimate > cap ? cap : estimate;
}

/**
 * A chain output at one of the house's addresses, as the watcher tracks it (txid:vout):
 * confirming — seen in a block, fewer confirmations than required;
 * credited   — booked to the wallet or order its address belongs to;
 * change     — the signer's change, back at a house address (no booking: it never left);
 * unmatched  — in the console's queue: dust, or an address that expects nothing (booked to the
 *              unmatched account, to be assigned to an account by an operator);
 * assigned   — an operator credited it to an account from the queue;
 * returned   — an operator sent it back from the queue to an address its sender named (a payout);
 * orphaned   — its block left the chain before it was credited: never credited;
 * reversed   — its block left the chain after it was credited: booked back, with an alert.
 */
export const CHAIN_OUTPUT_STATUSES = [
  'confirming',
  'credited',
  'change',
  'unmatched',
  'assigned',
  'returned',
  'orphaned',
  'reversed',
] as const;
export type ChainOutputStatus = (typeof CHAIN_OUTPUT_STATUSES)[number];
export const CHAIN_UNMATCHED_REASONS = ['dust', 'not_expected'] as const;
export type ChainUnmatchedReason = (typeof CHAIN_UNMATCHED_REASONS)[number];

/** The branches of a house key (chain/derive.ts): users' reception, orders' receiving, the signer's change. */
export const HOUSE_BRANCHES = ['users', 'orders', 'change'] as const;
export type HouseBranch = (typeof HOUSE_BRANCHES)[number];
export const HOUSE_BRANCH_CHILD: Record<HouseBranch, number> = { users: 0, orders: 1, change: 2 };

/**
 * The signer's own limits, in minor units, checked before it signs whatever the API asks: a
 * compromised API or database cannot drain the hot wallet faster than this. Above them a payout
 * waits (the operator pays it from cold storage, or raises the limit in a new signer release).
 */
export const SIGNER_LIMITS: Record<NodeCurrency, { perPayout: bigint; daily: bigint }> = {
  BTC: { perPayout: 200_000_000n, daily: 1_000_000_000n }, // 2 BTC, 10 BTC a day
  LTC: { perPayout: 50_000_000_000n, daily: 200_000_000_000n }, // 500 LTC, 2,000 LTC a day
  DOGE: { perPayout: 100_000_000_000_000n, daily: 500_000_000_000_000n }, // 1,000,000 DOGE, 5,000,000 a day
  BCH: { perPayout: 10_000_000_000n, daily: 50_000_000_000n }, // 100 BCH, 500 BCH a day
  ETH: { perPayout: 50_000_000_000_000_000_000n, daily: 200_000_000_000_000_000_000n }, // 50 ETH, 200 ETH a day
};
