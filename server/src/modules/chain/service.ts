import { BRANCH_CHILD, deriveAddress, type Branch, type DERIVED_CURRENCIES, type Xpubs } from './derive';
import { chainRepository } from './repository';
import type { Db } from '../../db/client';

export { DERIVED_CURRENCIES, TEST_XPUBS, deriveAddress, houseKey, type Branch, type Xpubs } from './derive';

/**
 * The next unused address of the house key for a currency, on a branch: users' reception
 * addresses or orders' receiving addresses (derive.ts). Each branch has its own counter (XRP's
 * tags one for both, since they share one account), so no address serves two purposes.
 * Concurrent requests queue on the counter's row: each gets its own index.
 */
export async function nextHouseAddress(db: Db, xpubs: Xpubs, code: (typeof DERIVED_CURRENCIES)[number], branch: Branch): Promise<{ index: number; address: string }> {
  // The users' counter keeps the currency's bare name: it is the one every address used before orders had a branch.
  const counter = branch === 'orders' && code !== 'XRP' ? `${code}/${BRANCH_CHILD.orders}` : code;
  const index = await chainRepository.takeNextIndex(db, counter);
  return { index, address: deriveAddress(code, xpubs, index, branch) };
}

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
