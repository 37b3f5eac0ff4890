import { createHash, randomBytes } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import { lockKey } from '../db/raw';
import { simulatedChainBlocks, simulatedChainMoves } from '../db/schema/dev';
import type { Db } from '../db/client';
import type { Block, Chain } from '../modules/chain/service';

/**
 * The simulated chain of local mode: one chain of blocks for all currencies, and what moved to
 * and from the house's addresses.
 *
 * Blocks: block 0 is made on first use; each block's hash is SHA-256(previous hash ‖ height as 8
 * bytes big-endian ‖ a fresh random 32-byte nonce), so no one knows a block's hash before it is
 * mined. A block is mined when the block after the tip is asked for (the faucet's draw asks for
 * the first block after its registrations closed); two replicas asking at once get the same block
 * (the height is the primary key).
 *
 * Balances: a simulated deposit (`npm run ops -- chain-deposit`) arrives at its address; a
 * simulated payout is spent from the house's addresses, fullest first. What they do not cover (a
 * buy paid out in crypto that never arrived on chain) comes from the operator's treasury outside
 * them, which is exactly the difference the reserves table shows. XRP balances belong to the
 * account, not to its destination tags.
 */
const GENESIS_PREVIOUS = '00'.repeat(32);

export function simulatedBlockHash(previousHash: string, height: number, nonce: string): string {
  const heightBytes = Buffer.alloc(8);
  heightBytes.writeBigUInt64BE(BigInt(height));
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(previousHash, 'hex'), heightBytes, Buffer.from(nonce, 'hex')]))
    .digest('hex');
}

/** Where a coin sits on chain: the address, or for XRP the account without its tag. */
const onChain = (currency: string, address: string) => (currency === 'XRP' ? address.split(':')[0]! : address);

async function insertBlock(db: Db, height: number, prevHash: string): Promise<void> {
  const nonce = randomBytes(32).toString('hex');
  await db
    .insert(simulatedChainBlocks)
    .values({ height, prevHash, nonce, hash: simulatedBlockHash(prevHash, height, nonce) })
    .onConflictDoNothing();
}

async function blockAt(db: Db, height: number): Promise<Block | null> {
  const [row] = await db
    .select({ height: simulatedChainBlocks.height, hash: simulatedChainBlocks.hash })
    .from(simulatedChainBlocks)
    .where(eq(simulatedChainBlocks.height, height));
  return row ?? null;
}

async function tip(db: Db): Promise<Block> {
  const [row] = await db
    .select({ height: simulatedChainBlocks.height, hash: simulatedChainBlocks.hash })
    .from(simulatedChainBlocks)
    .orderBy(desc(simulatedChainBlocks.height))
    .limit(1);
  if (row) return row;
  await insertBlock(db, 0, GENESIS_PREVIOUS);
  return (await blockAt(db, 0))!;
}

async function addressBalances(db: Db, currency: string): Promise<Map<string, bigint>> {
  const sums = await db
    .select({ address: simulatedChainMoves.address, balance: sql<string>`sum(${simulatedChainMoves.amount})::text` })
    .from(simulatedChainMoves)
    .where(eq(simulatedChainMoves.currency, currency))
    .groupBy(simulatedChainMoves.address);
  return new Map(sums.map((s) => [s.address, BigInt(s.balance)]));
}

export function simulatedChain(): Chain {
  return {
    name: 'simulated-chain',
    tip,
    async block(db, height) {
      const existing = await blockAt(db, height);
      if (existing) return existing;
      const top = await tip(db);
      // Only the block right after the tip can be mined now; later ones wait for it.
      if (height !== top.height + 1) return null;
      await insertBlock(db, height, top.hash);
      return blockAt(db, height);
    },
    async balances(db, currency, addresses) {
      const all = await addressBalances(db, currency);
      return new Map(addresses.map((address) => [address, all.get(onChain(currency, address)) ?? 0n]));
    },
    async received(db, { currency, address, amount, txid }) {
      await db
        .insert(simulatedChainMoves)
        .values({ txid, currency, address: onChain(currency, address), amount })
        .onConflictDoNothing();
    },
  };
}

/**
 * A simulated payout leaves the house: `amount` (what the recipient gets plus the network fee) is
 * spent from the house's addresses, fullest first, once per transaction id (a retried payout
 * spends nothing again). Payouts of one currency take turns (an advisory lock for the
 * transaction), so two of them never spend the same coins.
 */
export async function spendFromHouse(db: Db, spend: { currency: string; amount: bigint; txid: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await lockKey(tx, `simulated-chain:${spend.currency}`);
    const [already] = await tx
      .select({ id: simulatedChainMoves.id })
      .from(simulatedChainMoves)
      .where(eq(simulatedChainMoves.txid, spend.txid))
      .limit(1);
    if (already) return;
    let left = spend.amount;
    const fullest = [...(await addressBalances(tx, spend.currency))]
      .filter(([, balance]) => balance > 0n)
      .sort(([, a], [, b]) => (a > b ? -1 : a < b ? 1 : 0));
    for (const [address, balance] of fullest) {
      if (left === 0n) break;
      const taken = balance < left ? balance : left;
      await tx
        .insert(simulatedChainMoves)
        .values({ txid: spend.txid, currency: spend.currency, address, amount: -taken });
      left -= taken;
    }
  });
}
