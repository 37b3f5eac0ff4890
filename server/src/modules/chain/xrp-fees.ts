import { setNetworkFee } from '#domain/fees';
import type { XrplNode } from './xrpl-rpc';

/**
 * The network fee users are charged for an XRP send or an order's delivery, from the server's
 * `fee` (issue 31): what the signer will pay — the open ledger's fee, never below the reference
 * fee, never above XRP_FEE_CAP_DROPS — plus the operator's margin (NETWORK_FEE_MARGIN_PERCENT),
 * rounded up. An XRP payment costs the same whatever it pays, so no size enters it. What the
 * signer really pays differs by the time it signs; the difference is the house's (payouts/service.ts).
 */
export function xrpNetworkFee(
  fees: { openLedger: bigint; base: bigint },
  capDrops: bigint,
  marginPercent: number,
): bigint {
  const paid = [fees.openLedger, fees.base].reduce((a, b) => (a > b ? a : b));
  const capped = paid > capDrops ? capDrops : paid;
  const margin = BigInt(Math.round(marginPercent * 100));
  return (capped * (10_000n + margin) + 9_999n) / 10_000n;
}

/** Asks the server and sets the XRP fee charged from now on; the fee, or null when the server did not answer (the last one stays). */
export async function refreshXrpNetworkFee(
  node: XrplNode,
  capDrops: bigint,
  marginPercent: number,
): Promise<bigint | null> {
  const fees = await node.fee().catch(() => null);
  if (!fees) return null;
  const fee = xrpNetworkFee(fees, capDrops, marginPercent);
  setNetworkFee('XRP', fee);
  return fee;
}
