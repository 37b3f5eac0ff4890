import { HDKey } from '@scure/bip32';
import { HOUSE_BRANCHES, HOUSE_BRANCH_CHILD, type NodeCurrency } from '#domain/chain';
import { knownDecimals } from '#domain/currencies';
import { minorToDecimal } from '#domain/money';
import { chainNetwork } from '#domain/networks';
import { systemAccount } from '../ledger/service';
import { deriveAddress, houseKey, type Xpubs } from './derive';
import { isEthNode, type EthNode } from './ethereum';
import { chainRepository } from './repository';
import { addressesHandedOut, confirmingTotal, raiseReconciliationAlert, trackedUnspent } from './service';
import type { Reconciliation } from '#domain/contracts/chain';
import type { Db } from '../../db/client';
import type { CoinNode } from './rpc';

/**
 * Reconciliation (issue 30): per currency, the house's coins on chain against the ledger.
 * - on chain: the node's own count of the unspent outputs of the house keys (scantxoutset over
 *   the three branches, as far as addresses were handed out, plus a margin), independent of what
 *   the watcher recorded; where the node cannot scan (Dogecoin), the watcher's outputs, each asked
 *   of the node (gettxout) so a spent one does not count;
 * - expected: the ledger's chain account (every deposit booked in, every payout booked out, the
 *   difference of the fees the signer paid booked to the house), plus the deposits mined but not
 *   yet credited, minus the payouts mined but not yet confirmed enough to be booked.
 * A difference is an alert on the console's first page.
 */
export type InFlight = (db: Db, currency: NodeCurrency) => Promise<bigint>;

const MARGIN = 20;
const TEST_KEY_VERSIONS = { private: 0x04358394, public: 0x043587cf };

/** An output descriptor of a branch of the house key, with the key as the node's network spells it (tpub on test chains). */
function descriptor(currency: NodeCurrency, xpub: string, branch: number): string {
  const key = houseKey(xpub);
  const spelled =
    chainNetwork() === 'mainnet'
      ? key.publicExtendedKey
      : new HDKey({
          versions: TEST_KEY_VERSIONS,
          chainCode: key.chainCode!,
          publicKey: key.publicKey!,
          depth: key.depth,
          index: key.index,
          parentFingerprint: key.parentFingerprint,
        }).publicExtendedKey;
  const script = currency === 'BTC' || currency === 'LTC' ? 'wpkh' : 'pkh';
  return `${script}(${spelled}/${branch}/*)`;
}

/**
 * Ether (issue 31): no outputs to scan. The house's ether is the balances of its addresses (every
 * address handed out on the three branches: deposits, orders, the hot address) at the last block
 * the watcher scanned, asked of the node one by one, so what the watcher booked and what is on chain
 * are compared at one block. Ether a contract sent to a deposit address while the node gave no
 * traces shows here as a difference.
 */
async function etherOnChain(db: Db, node: EthNode, xpubs: Xpubs): Promise<bigint> {
  const [scanned] = await chainRepository.lastBlocks(db, node.currency, 1);
  let total = 0n;
  for (const branch of HOUSE_BRANCHES) {
    const handedOut = await addressesHandedOut(db, node.currency, branch);
    for (let index = 0; index < handedOut; index++)
      total += await node.balance(deriveAddress('ETH', xpubs, index, branch), scanned?.height);
  }
  return total;
}

export async function reconcile(db: Db, node: CoinNode, xpubs: Xpubs, inFlight: InFlight): Promise<Reconciliation> {
  const currency = node.currency;
  const decimals = knownDecimals(currency);
  if (isEthNode(node)) return compare(db, currency, decimals, await etherOnChain(db, node, xpubs), inFlight);
  const descriptors = [];
  for (const branch of HOUSE_BRANCHES) {
    const handedOut = await addressesHandedOut(db, currency, branch);
    const desc = descriptor(currency, xpubs[currency], HOUSE_BRANCH_CHILD[branch]);
    // The node wants the descriptor's checksum; getdescriptorinfo adds it.
    const withChecksum = (
      await node.call<{ descriptor: string }>('getdescriptorinfo', [desc]).catch(() => ({ descriptor: desc }))
    ).descriptor;
    descriptors.push({ desc: withChecksum, range: handedOut + MARGIN });
  }
  // A node without scantxoutset answers null (the watcher's outputs count instead); a node that fails
  // (another replica's scan is still running, it is down) fails the run: no alert on half an answer.
  return compare(db, currency, decimals, await node.scanTotal(descriptors), inFlight);
}

async function compare(
  db: Db,
  currency: NodeCurrency,
  decimals: number,
  onChain: bigint | null,
  inFlight: InFlight,
): Promise<Reconciliation> {
  const tracked = await trackedUnspent(db, currency);
  const chainBalance = (await systemAccount(db, 'chain', currency)).balance;
  const expected = -chainBalance + (await confirmingTotal(db, currency)) - (await inFlight(db, currency));
  const difference = (onChain ?? tracked) - expected;
  const result: Reconciliation = {
    currency,
    onChain: onChain === null ? null : minorToDecimal(onChain, decimals),
    tracked: minorToDecimal(tracked, decimals),
    expected: minorToDecimal(expected, decimals),
    difference: minorToDecimal(difference, decimals),
    ok: difference === 0n,
  };
  if (!result.ok) await raiseReconciliationAlert(db, currency, { ...result });
  return result;
}
