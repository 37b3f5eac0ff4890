import { boundedFeeRate, FEE_RATE_LIMITS, type NodeCurrency } from '#domain/chain';
import { ETH_GAS_LIMIT, setNetworkFee } from '#domain/fees';
import { eip1559Fees, isEthNode } from './ethereum';
import type { CoinNode } from './rpc';

/**
 * The network fee users are charged for a send or an order's delivery, from the node's estimate
 * (issue 30): the fee rate for confirmation within 6 blocks, held between the signer's floor and
 * cap, times the size of a typical payout (one input, the payout and the change: 141 virtual bytes
 * for P2WPKH, 226 bytes for legacy P2PKH), plus the operator's margin (NETWORK_FEE_MARGIN_PERCENT),
 * rounded up. Quotes, orders and sends read it (domain/fees.ts networkFeeMinor); the signer pays
 * what the network asks when it signs, and the difference is the house's (payouts/service.ts).
 */
// Ether: a plain transfer's 21,000 gas, at the wei per gas of the max fee (eip1559Fees).
export const TYPICAL_PAYOUT_VSIZE: Record<NodeCurrency, bigint> = {
  BTC: 141n,
  LTC: 141n,
  DOGE: 226n,
  BCH: 226n,
  ETH: ETH_GAS_LIMIT,
};

export function networkFeeFrom(currency: NodeCurrency, estimate: bigint | null, marginPercent: number): bigint {
  const base = boundedFeeRate(currency, estimate) * TYPICAL_PAYOUT_VSIZE[currency];
  const margin = BigInt(Math.round(marginPercent * 100));
  return (base * (10_000n + margin) + 9_999n) / 10_000n;
}

/** Asks the node for its estimate and sets the fee charged from now on; the fee, or null when the node did not answer (the last one stays). */
export async function refreshNetworkFee(node: CoinNode, marginPercent: number): Promise<bigint | null> {
  const estimate = isEthNode(node)
    ? await node.fees().then(
        (fees) => eip1559Fees(fees, FEE_RATE_LIMITS.ETH.cap).maxFeePerGas,
        () => undefined,
      )
    : await node.feeRate(6).catch(() => undefined);
  if (estimate === undefined) return null;
  const fee = networkFeeFrom(node.currency, estimate, marginPercent);
  setNetworkFee(node.currency, fee);
  return fee;
}
